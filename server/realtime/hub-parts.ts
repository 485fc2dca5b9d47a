import type { WebSocket } from 'ws';
import type { EventBus } from './bus.ts';
import type { Awaitable, ChannelAuthorizer, PrincipalResolver, SocketPrincipal } from './hub.ts';
import type { PushGrant } from './push-keys.ts';

// What the parts of the realtime hub (hub.ts wires them) share: its options with their defaults
// filled in, the connected sockets and the rooms, one per channel in use.

export interface Client {
  socket: WebSocket;
  principal: SocketPrincipal;
  channels: Set<string>;
  alive: boolean;
  /** The latest key presented, and the channels only it granted. */
  grant?: PushGrant | undefined;
  viaKey: Set<string>;
  /**
   * What this socket's frames and the hub's changes to it (session ends, expiry) do, one after
   * the other: an answer that waits for the database must not let a later frame overtake it.
   */
  queue: Promise<void>;
}

/** A handshake whose session is being looked up: the sessions that end meanwhile. */
export interface Resolving {
  ended: Set<string>;
}

/** A channel in use: its sockets and the hub's one bus subscription for it. */
export interface Room {
  members: Set<Client>;
  unsubscribe: () => void;
}

export interface HubParts {
  bus: EventBus;
  authorize: ChannelAuthorizer;
  resolvePrincipal: PrincipalResolver;
  /** Besides the request's own host. */
  allowedOrigins: readonly string[];
  log: (message: string, error?: unknown) => void;
  verifyKey: (key: unknown) => PushGrant | null;
  isSessionLive: (sessionPublicId: string) => Awaitable<boolean>;
  now: () => number;
  clients: Set<Client>;
  rooms: Map<string, Room>;
  resolving: Set<Resolving>;
}

export function send(client: Client, message: unknown): void {
  if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message));
}

/**
 * Runs `work` on the socket once what it queued before is done; a failure is logged, never
 * thrown (nothing waits on a socket's frames). Resolves when `work` finished.
 */
export function serially(
  parts: Pick<HubParts, 'log'>,
  client: Client,
  what: string,
  work: () => Awaitable<void>,
): Promise<void> {
  const next = client.queue.then(work).catch((error: unknown) => parts.log(`realtime: ${what} failed`, error));
  client.queue = next;
  return next;
}

/** Still connected: work that waited for the database must not touch a socket that closed meanwhile. */
export const connected = (parts: Pick<HubParts, 'clients'>, client: Client): boolean => parts.clients.has(client);
