import { type Client, connected, type HubParts, send } from './hub-parts.ts';
import { acceptKey, expireGrant, keyGrants } from './key-grants.ts';
import { join, leave } from './rooms.ts';

// One frame a client sent (the protocol is described in hub.ts). The socket's frames are handled
// one after the other (upgrade.ts queues them): an answer may wait for the database.

const MAX_CHANNELS_PER_SOCKET = 50;
const CHANNEL_PATTERN = /^[a-z][A-Za-z0-9_:.-]{0,99}$/;

/** A public channel, the principal's, or a live key's; the socket remembers which granted it. */
async function subscribe(parts: HubParts, client: Client, channel: string): Promise<void> {
  if (!CHANNEL_PATTERN.test(channel)) return send(client, { type: 'error', code: 'BAD_MESSAGE' });
  const byCookie = await parts.authorize(channel, client.principal);
  const byKey = byCookie ? 'no' : await keyGrants(parts, client, channel);
  // Closed while the answer was looked up: joining now would keep a room for nobody.
  if (!connected(parts, client)) return;
  if (byKey === 'expired') return send(client, { type: 'error', code: 'ACCESS_DENIED', channels: [channel] });
  if (!byCookie && byKey !== 'yes') return send(client, { type: 'error', code: 'CHANNEL_FORBIDDEN', channel });
  if (!client.channels.has(channel) && client.channels.size >= MAX_CHANNELS_PER_SOCKET) {
    return send(client, { type: 'error', code: 'TOO_MANY_CHANNELS', channel });
  }
  join(parts, client, channel);
  if (byCookie) client.viaKey.delete(channel);
  else client.viaKey.add(channel);
  // "subscribed" promises every event from now on, other processes' too: wait for Redis to say so.
  await parts.bus.listening?.(channel);
  if (connected(parts, client)) send(client, { type: 'subscribed', channel });
}

export async function onMessage(parts: HubParts, client: Client, raw: string): Promise<void> {
  let message: { type?: unknown; channel?: unknown; key?: unknown };
  try {
    message = JSON.parse(raw);
  } catch {
    return send(client, { type: 'error', code: 'BAD_MESSAGE' });
  }
  const channel = typeof message.channel === 'string' ? message.channel : '';
  switch (message.type) {
    case 'ping':
      if (expireGrant(parts, client)) return;
      return send(client, { type: 'pong' });
    case 'auth':
      return acceptKey(parts, client, message.key);
    case 'subscribe':
      return subscribe(parts, client, channel);
    case 'unsubscribe':
      leave(parts, client, channel);
      return send(client, { type: 'unsubscribed', channel });
    default:
      return send(client, { type: 'error', code: 'BAD_MESSAGE' });
  }
}
