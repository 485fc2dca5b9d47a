import { type Client, connected, type HubParts, send } from './hub-parts.ts';
import { leave } from './rooms.ts';

// A push-authorize key (server/realtime/push-keys.ts) presented on a socket: the channels it
// grants while it lasts, its replacement by a newer key, and its expiry.

export type KeyAnswer = 'yes' | 'no' | 'expired';

export async function keyGrants({ authorize, now }: HubParts, client: Client, channel: string): Promise<KeyAnswer> {
  const grant = client.grant;
  if (!grant?.channels.includes(channel)) return 'no';
  if (grant.expiresAt <= now()) return 'expired';
  return (await authorize(channel, { userId: grant.userId, userPublicId: grant.userPublicId })) ? 'yes' : 'no';
}

/** An expired key: its channels go, and the client hears it must re-authorise. */
export function expireGrant(parts: HubParts, client: Client): boolean {
  if (!client.grant || client.grant.expiresAt > parts.now()) return false;
  const left = [...client.viaKey];
  for (const channel of left) leave(parts, client, channel);
  client.grant = undefined;
  send(client, { type: 'error', code: 'ACCESS_DENIED', channels: left });
  return true;
}

/** The `auth` frame: the key is taken, or the client hears ACCESS_DENIED. */
export async function acceptKey(parts: HubParts, client: Client, key: unknown): Promise<void> {
  const grant = parts.verifyKey(key);
  const principal = client.principal;
  // A key of another user than the socket's own session is never taken.
  const foreign = grant && principal.userId !== undefined && principal.userId !== grant.userId;
  if (!grant || grant.expiresAt <= parts.now() || foreign || !(await parts.isSessionLive(grant.sessionPublicId)))
    return send(client, { type: 'error', code: 'ACCESS_DENIED' });
  if (!connected(parts, client)) return;
  // A new key replaces the old one; channels it no longer lists go.
  for (const joined of [...client.viaKey]) if (!grant.channels.includes(joined)) leave(parts, client, joined);
  client.grant = grant;
  send(client, { type: 'authorized', expiresAt: grant.expiresAt });
}
