import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { EventBus } from './bus.ts';
import { startHeartbeat } from './heartbeat.ts';
import type { HubParts } from './hub-parts.ts';
import { endSessions } from './hub-sessions.ts';
import type { PushGrant } from './push-keys.ts';
import { endedSessionIds, SESSIONS_CHANNEL } from './session-ends.ts';
import { handleUpgrade } from './upgrade.ts';

// The realtime hub on /ws (same port as HTTP). Sockets subscribe to channels; the hub holds one
// bus subscription per channel in use and fans each event out, serialized once.
//
// Client → server: {"type":"subscribe","channel":"rates"} | {"type":"unsubscribe","channel":…} | {"type":"ping"}
//                  {"type":"auth","key":…}  (the push-authorize `auth_key`, server/realtime/push-keys.ts)
// Server → client: {"type":"subscribed","channel":…} | {"type":"unsubscribed","channel":…} | {"type":"pong"}
//                  {"type":"authorized","expiresAt":…}
//                  {"type":"event","channel":…,"event":{"type":…,"payload":…}}
//                  {"type":"error","code":"CHANNEL_FORBIDDEN"|"BAD_MESSAGE"|"TOO_MANY_CHANNELS","channel"?:…}
//                  {"type":"error","code":"ACCESS_DENIED","channels"?:[…]}  (key refused or expired,
//                  or the session behind the cookie or key ended: the channels it alone granted
//                  are left; spec section 8: re-authorise, new key)
//
// A channel is joined when it is public, when the authoriser grants it to the handshake's
// principal (the session cookie), or when a valid key lists it and the authoriser grants it to the
// key's user. A key's grant ends at its expiry: the next ping (or the server's heartbeat) answers
// ACCESS_DENIED.
//
// A socket remembers the session that authorised it (the cookie's, the key's). When a session ends
// (`endSessions`: the bus's `session.ended`, or the poll of server/realtime/session-ends.ts), the
// socket is left with what remains: public channels, and a live key's. It is not closed: the
// client's answer to ACCESS_DENIED is to ask for a new key, which a browser that signed in again
// gets and a signed-out one does not, and the public channels (prices) keep flowing meanwhile.

/** Who is on the other end of a socket; the accounts issue fills it from the session. */
export interface SocketPrincipal {
  userId?: number;
  userPublicId?: string;
  /** The session's public id (`ses_…`): when it ends, the socket loses what it granted. */
  sessionPublicId?: string;
}

/** Anyone may join these; every other channel needs the authorizer's yes. */
export const PUBLIC_CHANNELS: ReadonlySet<string> = new Set(['rates', 'quotes']);

/** A synchronous answer or a promise of one (the trades service asks the database). */
export type Awaitable<T> = T | Promise<T>;

export type ChannelAuthorizer = (channel: string, principal: SocketPrincipal) => Awaitable<boolean>;
export type PrincipalResolver = (request: IncomingMessage) => Awaitable<SocketPrincipal>;

export const publicChannelsOnly: ChannelAuthorizer = (channel) => PUBLIC_CHANNELS.has(channel);

export interface RealtimeHubOptions {
  bus: EventBus;
  authorize?: ChannelAuthorizer;
  resolvePrincipal?: PrincipalResolver;
  /** Besides the request's own host. */
  allowedOrigins?: readonly string[];
  heartbeatMs?: number;
  log?: (message: string, error?: unknown) => void;
  /** Reads a push-authorize key (server/realtime/push-keys.ts); without it `auth` frames are refused. */
  verifyKey?: (key: unknown) => PushGrant | null;
  /** Whether a key's session is still signed in (the session service); a key of an ended one is refused. */
  isSessionLive?: (sessionPublicId: string) => Awaitable<boolean>;
  now?: () => number;
}

export interface RealtimeHub {
  /** Handles an HTTP upgrade for /ws; returns false when the request is not for the hub. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  connectionCount(): number;
  /** These sessions ended: the sockets they authorised lose what only they granted (resolves when done). */
  endSessions(sessionPublicIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The hub object: the options' defaults, then the parts (hub-parts.ts and its neighbours) wired. */
export function createRealtimeHub(options: RealtimeHubOptions): RealtimeHub {
  const { bus, heartbeatMs = 30_000 } = options;
  const parts: HubParts = {
    bus,
    authorize: options.authorize ?? publicChannelsOnly,
    resolvePrincipal: options.resolvePrincipal ?? (() => ({})),
    allowedOrigins: options.allowedOrigins ?? [],
    log: options.log ?? (() => {}),
    verifyKey: options.verifyKey ?? (() => null),
    isSessionLive: options.isSessionLive ?? (() => true),
    now: options.now ?? Date.now,
    clients: new Set(),
    rooms: new Map(),
    resolving: new Set(),
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024, clientTracking: false });
  // With a bus shared between processes, this hears the ends of every process.
  const stopHearingEnds = bus.subscribe(
    SESSIONS_CHANNEL,
    (event) => {
      void endSessions(parts, endedSessionIds(event)).catch((error: unknown) =>
        parts.log('realtime: could not end the sockets of ended sessions', error),
      );
    },
    'everywhere',
  );
  const stopHeartbeat = startHeartbeat(parts, heartbeatMs);

  let closing: Promise<void> | undefined;
  const close = async () => {
    stopHeartbeat();
    stopHearingEnds();
    for (const client of parts.clients) client.socket.close(1001, 'server shutting down');
    // Give peers a moment to answer the close frame, then cut whatever is left.
    await new Promise((resolve) => setTimeout(resolve, 200).unref());
    for (const client of parts.clients) client.socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };

  return {
    handleUpgrade: (request, socket, head) => handleUpgrade(parts, wss, request, socket, head),
    connectionCount: () => parts.clients.size,
    endSessions: (sessionPublicIds) => endSessions(parts, sessionPublicIds),
    close() {
      closing ??= close();
      return closing;
    },
  };
}
