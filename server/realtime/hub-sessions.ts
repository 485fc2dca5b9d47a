import { type Client, connected, type HubParts, send, serially } from './hub-parts.ts';
import { keyGrants } from './key-grants.ts';
import { leave } from './rooms.ts';

/**
 * Whatever a socket holds must still be granted by what authorises it now (its principal, a live
 * key); the rest is left, and the client hears which channels went. Resolves once every socket
 * of these sessions was dealt with (each in its turn with its own frames).
 */
export async function endSessions(parts: HubParts, sessionPublicIds: readonly string[]): Promise<void> {
  if (sessionPublicIds.length === 0) return;
  const ended = new Set(sessionPublicIds);
  // A handshake still looking its session up takes no principal of these.
  for (const pending of parts.resolving) for (const id of ended) pending.ended.add(id);
  await Promise.all(
    [...parts.clients].map((client) => serially(parts, client, 'ending a session', () => endFor(parts, client, ended))),
  );
}

async function endFor(parts: HubParts, client: Client, ended: ReadonlySet<string>): Promise<void> {
  const bySession = client.principal.sessionPublicId;
  const cookieEnded = bySession !== undefined && ended.has(bySession);
  const keyEnded = client.grant !== undefined && ended.has(client.grant.sessionPublicId);
  if (!cookieEnded && !keyEnded) return;
  if (cookieEnded) client.principal = {};
  if (keyEnded) client.grant = undefined;
  const left: string[] = [];
  for (const channel of [...client.channels]) {
    if (await parts.authorize(channel, client.principal)) {
      client.viaKey.delete(channel);
    } else if ((await keyGrants(parts, client, channel)) === 'yes') {
      client.viaKey.add(channel);
    } else {
      leave(parts, client, channel);
      left.push(channel);
    }
  }
  if (left.length > 0 && connected(parts, client))
    send(client, { type: 'error', code: 'ACCESS_DENIED', channels: left });
}
