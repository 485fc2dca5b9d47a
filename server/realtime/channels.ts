import type { IncomingMessage } from 'node:http';
import { readCookie } from '../http/cookies.ts';
import type { SessionService } from '../services/accounts/sessions.ts';
import {
  type Awaitable,
  type ChannelAuthorizer,
  type PrincipalResolver,
  PUBLIC_CHANNELS,
  type SocketPrincipal,
} from './hub.ts';

// Who may listen where. Public channels are open; a personal channel `<kind>:<user public id>`
// belongs to that user alone. The socket's user comes from the session cookie of its handshake.

/** Kinds of personal channels; each is named `<kind>:<usr_…>`. */
export const PERSONAL_CHANNEL_KINDS = ['notifications', 'telegram', 'wallet'] as const;

const PERSONAL = new RegExp(`^(${PERSONAL_CHANNEL_KINDS.join('|')}):(usr_[0-9A-Za-z]{16})$`);

export function personalChannel(kind: (typeof PERSONAL_CHANNEL_KINDS)[number], userPublicId: string): string {
  return `${kind}:${userPublicId}`;
}

/** A trade's channel `trade:<hash>`: its chat and status events, for its two parties and moderators. */
export const tradeChannel = (tradeHash: string): string => `trade:${tradeHash}`;
const TRADE = /^trade:([0-9A-Za-z]{6,32})$/;

/** Whether this user may follow this trade (the trades service answers). */
export type TradeChannelAccess = (tradeHash: string, userId: number) => Awaitable<boolean>;

/** Public and personal channels only: for hubs without trades (tests of other areas). */
export const authorizeChannel = (channel: string, principal: SocketPrincipal): boolean => {
  if (PUBLIC_CHANNELS.has(channel)) return true;
  const owner = PERSONAL.exec(channel)?.[2];
  return owner !== undefined && owner === principal.userPublicId;
};

/** Public, personal and trade channels. */
export function createChannelAuthorizer({ tradeAccess }: { tradeAccess: TradeChannelAccess }): ChannelAuthorizer {
  return async (channel, principal) => {
    if (authorizeChannel(channel, principal)) return true;
    const trade = TRADE.exec(channel)?.[1];
    return trade !== undefined && principal.userId !== undefined && (await tradeAccess(trade, principal.userId));
  };
}

export function sessionPrincipal(sessions: SessionService, cookieName: string): PrincipalResolver {
  return async (request: IncomingMessage) => {
    const token = readCookie(request.headers.cookie, cookieName);
    const found = token ? await sessions.validate(token) : null;
    if (!found) return {};
    // The session is remembered: when it ends, the socket loses what it granted (hub.ts).
    return { userId: found.user.id, userPublicId: found.user.publicId, sessionPublicId: found.session.publicId };
  };
}
