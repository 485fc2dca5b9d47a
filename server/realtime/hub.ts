import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { BusEvent, EventBus } from './bus.ts';
import type { PushGrant } from './push-keys.ts';
import { endedSessionIds, SESSIONS_CHANNEL } from './session-ends.ts';

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

export type ChannelAuthorizer = (channel: string, principal: SocketPrincipal) => boolean;
export type PrincipalResolver = (request: IncomingMessage) => SocketPrincipal;

export const publicChannelsOnly: ChannelAuthorizer = (channel) => PUBLIC_CHANNELS.has(channel);

const MAX_CHANNELS_PER_SOCKET = 50;
const CHANNEL_PATTERN = /^[a-z][A-Za-z0-9_:.-]{0,99}$/;

interface Client {
  socket: WebSocket;
  principal: SocketPrincipal;
  channels: Set<string>;
  alive: boolean;
  /** The latest key presented, and the channels only it granted. */
  grant?: PushGrant | undefined;
  viaKey: Set<string>;
}

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
  isSessionLive?: (sessionPublicId: string) => boolean;
  now?: () => number;
}

export interface RealtimeHub {
  /** Handles an HTTP upgrade for /ws; returns false when the request is not for the hub. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  connectionCount(): number;
  /** These sessions ended: the sockets they authorised lose what only they granted. */
  endSessions(sessionPublicIds: readonly string[]): void;
  close(): Promise<void>;
}

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export function createRealtimeHub(options: RealtimeHubOptions): RealtimeHub {
  const {
    bus,
    authorize = publicChannelsOnly,
    resolvePrincipal = () => ({}),
    allowedOrigins = [],
    heartbeatMs = 30_000,
    log = () => {},
    verifyKey = () => null,
    isSessionLive = () => true,
    now = Date.now,
  } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024, clientTracking: false });
  const clients = new Set<Client>();
  const rooms = new Map<string, { members: Set<Client>; unsubscribe: () => void }>();

  const send = (client: Client, message: unknown) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message));
  };

  const fanOut = (event: BusEvent, channel: string) => {
    const room = rooms.get(channel);
    if (!room) return;
    const frame = JSON.stringify({ type: 'event', channel, event });
    for (const member of room.members) {
      if (member.socket.readyState === member.socket.OPEN) member.socket.send(frame);
    }
  };

  const join = (client: Client, channel: string) => {
    let room = rooms.get(channel);
    if (!room) {
      room = { members: new Set(), unsubscribe: bus.subscribe(channel, fanOut) };
      rooms.set(channel, room);
    }
    room.members.add(client);
    client.channels.add(channel);
  };

  const leave = (client: Client, channel: string) => {
    const room = rooms.get(channel);
    client.channels.delete(channel);
    client.viaKey.delete(channel);
    if (!room) return;
    room.members.delete(client);
    if (room.members.size === 0) {
      room.unsubscribe();
      rooms.delete(channel);
    }
  };

  const keyGrants = (client: Client, channel: string): 'yes' | 'no' | 'expired' => {
    const grant = client.grant;
    if (!grant?.channels.includes(channel)) return 'no';
    if (grant.expiresAt <= now()) return 'expired';
    return authorize(channel, { userId: grant.userId, userPublicId: grant.userPublicId }) ? 'yes' : 'no';
  };

  /** An expired key: its channels go, and the client hears it must re-authorise. */
  const expireGrant = (client: Client): boolean => {
    if (!client.grant || client.grant.expiresAt > now()) return false;
    const left = [...client.viaKey];
    for (const channel of left) leave(client, channel);
    client.grant = undefined;
    send(client, { type: 'error', code: 'ACCESS_DENIED', channels: left });
    return true;
  };

  /**
   * Whatever a socket holds must still be granted by what authorises it now (its principal, a live
   * key); the rest is left, and the client hears which channels went.
   */
  const endSessions = (sessionPublicIds: readonly string[]) => {
    if (sessionPublicIds.length === 0) return;
    const ended = new Set(sessionPublicIds);
    for (const client of clients) {
      const bySession = client.principal.sessionPublicId;
      const cookieEnded = bySession !== undefined && ended.has(bySession);
      const keyEnded = client.grant !== undefined && ended.has(client.grant.sessionPublicId);
      if (!cookieEnded && !keyEnded) continue;
      if (cookieEnded) client.principal = {};
      if (keyEnded) client.grant = undefined;
      const left: string[] = [];
      for (const channel of [...client.channels]) {
        if (authorize(channel, client.principal)) {
          client.viaKey.delete(channel);
        } else if (keyGrants(client, channel) === 'yes') {
          client.viaKey.add(channel);
        } else {
          leave(client, channel);
          left.push(channel);
        }
      }
      if (left.length > 0) send(client, { type: 'error', code: 'ACCESS_DENIED', channels: left });
    }
  };
  // With a bus shared between processes, this hears the ends of every process.
  const stopHearingEnds = bus.subscribe(SESSIONS_CHANNEL, (event) => endSessions(endedSessionIds(event)));

  const onMessage = (client: Client, raw: string) => {
    let message: { type?: unknown; channel?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      return send(client, { type: 'error', code: 'BAD_MESSAGE' });
    }
    const channel = typeof message.channel === 'string' ? message.channel : '';
    switch (message.type) {
      case 'ping':
        if (expireGrant(client)) return;
        return send(client, { type: 'pong' });
      case 'auth': {
        const grant = verifyKey((message as { key?: unknown }).key);
        const principal = client.principal;
        // A key of another user than the socket's own session is never taken.
        const foreign = grant && principal.userId !== undefined && principal.userId !== grant.userId;
        if (!grant || grant.expiresAt <= now() || foreign || !isSessionLive(grant.sessionPublicId))
          return send(client, { type: 'error', code: 'ACCESS_DENIED' });
        // A new key replaces the old one; channels it no longer lists go.
        for (const joined of [...client.viaKey]) if (!grant.channels.includes(joined)) leave(client, joined);
        client.grant = grant;
        return send(client, { type: 'authorized', expiresAt: grant.expiresAt });
      }
      case 'subscribe': {
        if (!CHANNEL_PATTERN.test(channel)) return send(client, { type: 'error', code: 'BAD_MESSAGE' });
        const byCookie = authorize(channel, client.principal);
        const byKey = byCookie ? 'no' : keyGrants(client, channel);
        if (byKey === 'expired') return send(client, { type: 'error', code: 'ACCESS_DENIED', channels: [channel] });
        if (!byCookie && byKey !== 'yes') return send(client, { type: 'error', code: 'CHANNEL_FORBIDDEN', channel });
        if (!client.channels.has(channel) && client.channels.size >= MAX_CHANNELS_PER_SOCKET) {
          return send(client, { type: 'error', code: 'TOO_MANY_CHANNELS', channel });
        }
        join(client, channel);
        if (byCookie) client.viaKey.delete(channel);
        else client.viaKey.add(channel);
        return send(client, { type: 'subscribed', channel });
      }
      case 'unsubscribe':
        leave(client, channel);
        return send(client, { type: 'unsubscribed', channel });
      default:
        return send(client, { type: 'error', code: 'BAD_MESSAGE' });
    }
  };

  const heartbeat = setInterval(() => {
    for (const client of clients) {
      // No pong since the last ping: the peer is gone (sleeping laptop, dropped NAT entry).
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
      expireGrant(client);
    }
  }, heartbeatMs);
  heartbeat.unref();

  let closing: Promise<void> | undefined;
  const close = async () => {
    clearInterval(heartbeat);
    stopHearingEnds();
    for (const client of clients) client.socket.close(1001, 'server shutting down');
    // Give peers a moment to answer the close frame, then cut whatever is left.
    await new Promise((resolve) => setTimeout(resolve, 200).unref());
    for (const client of clients) client.socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };

  return {
    handleUpgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== '/ws') return false;
      const origin = request.headers.origin;
      const ownOrigins = [`http://${request.headers.host}`, `https://${request.headers.host}`];
      // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
      if (origin !== undefined && !ownOrigins.includes(origin) && !allowedOrigins.includes(origin)) {
        rejectUpgrade(socket, 403, 'Forbidden');
        return true;
      }
      let principal: SocketPrincipal;
      try {
        principal = resolvePrincipal(request);
      } catch (error) {
        log('realtime: could not resolve the socket principal', error);
        rejectUpgrade(socket, 500, 'Internal Server Error');
        return true;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        const client: Client = { socket: ws, principal, channels: new Set(), alive: true, viaKey: new Set() };
        clients.add(client);
        ws.on('pong', () => {
          client.alive = true;
        });
        ws.on('message', (data, isBinary) => {
          client.alive = true;
          if (isBinary) return send(client, { type: 'error', code: 'BAD_MESSAGE' });
          onMessage(client, data.toString());
        });
        ws.on('close', () => {
          for (const channel of [...client.channels]) leave(client, channel);
          clients.delete(client);
        });
        ws.on('error', (error) => log('realtime: socket error', error));
      });
      return true;
    },

    connectionCount: () => clients.size,

    endSessions,

    close() {
      closing ??= close();
      return closing;
    },
  };
}
