import type { WebSocket } from 'ws';
import type { EventBus } from './bus.ts';
import type { ChannelAuthorizer, PrincipalResolver, SocketPrincipal } from './hub.ts';
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
  isSessionLive: (sessionPublicId: string) => boolean;
  now: () => number;
  clients: Set<Client>;
  rooms: Map<string, Room>;
}

export function send(client: Client, message: unknown): void {
  if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message));
}
