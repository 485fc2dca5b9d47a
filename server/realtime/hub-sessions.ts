import { type HubParts, send } from './hub-parts.ts';
import { keyGrants } from './key-grants.ts';
import { leave } from './rooms.ts';

/**
 * Whatever a socket holds must still be granted by what authorises it now (its principal, a live
 * key); the rest is left, and the client hears which channels went.
 */
export function endSessions(parts: HubParts, sessionPublicIds: readonly string[]): void {
  if (sessionPublicIds.length === 0) return;
  const ended = new Set(sessionPublicIds);
  for (const client of parts.clients) {
    const bySession = client.principal.sessionPublicId;
    const cookieEnded = bySession !== undefined && ended.has(bySession);
    const keyEnded = client.grant !== undefined && ended.has(client.grant.sessionPublicId);
    if (!cookieEnded && !keyEnded) continue;
    if (cookieEnded) client.principal = {};
    if (keyEnded) client.grant = undefined;
    const left: string[] = [];
    for (const channel of [...client.channels]) {
      if (parts.authorize(channel, client.principal)) {
        client.viaKey.delete(channel);
      } else if (keyGrants(parts, client, channel) === 'yes') {
        client.viaKey.add(channel);
      } else {
        leave(parts, client, channel);
        left.push(channel);
      }
    }
    if (left.length > 0) send(client, { type: 'error', code: 'ACCESS_DENIED', channels: left });
  }
}
