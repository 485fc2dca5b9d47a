import { type HubParts, serially } from './hub-parts.ts';
import { expireGrant } from './key-grants.ts';

/** Pings every socket each `heartbeatMs` and ends expired keys; returns the stop function. */
export function startHeartbeat(parts: HubParts, heartbeatMs: number): () => void {
  const heartbeat = setInterval(() => {
    for (const client of parts.clients) {
      // No pong since the last ping: the peer is gone (sleeping laptop, dropped NAT entry).
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
      // In turn with the socket's frames, which may be waiting for an answer of the key's.
      void serially(parts, client, 'the heartbeat', () => {
        expireGrant(parts, client);
      });
    }
  }, heartbeatMs);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}
