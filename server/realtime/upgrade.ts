import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { SocketPrincipal } from './hub.ts';
import { type Client, type HubParts, type Resolving, send, serially } from './hub-parts.ts';
import { leave } from './rooms.ts';
import { onMessage } from './socket-messages.ts';

// The handshake on /ws: the origin check, the principal from the request, then the socket's life.

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A connected socket: its frames, its pongs, and its channels left when it closes. */
function attach(parts: HubParts, ws: WebSocket, principal: SocketPrincipal): void {
  const client: Client = {
    socket: ws,
    principal,
    channels: new Set(),
    alive: true,
    viaKey: new Set(),
    queue: Promise.resolve(),
  };
  parts.clients.add(client);
  ws.on('pong', () => {
    client.alive = true;
  });
  ws.on('message', (data, isBinary) => {
    client.alive = true;
    if (isBinary) return send(client, { type: 'error', code: 'BAD_MESSAGE' });
    const raw = data.toString();
    void serially(parts, client, 'a socket frame', () => onMessage(parts, client, raw));
  });
  ws.on('close', () => {
    for (const channel of [...client.channels]) leave(parts, client, channel);
    parts.clients.delete(client);
  });
  ws.on('error', (error) => parts.log('realtime: socket error', error));
}

/** Handles an HTTP upgrade for /ws; false when the request is not for the hub. */
export function handleUpgrade(
  parts: HubParts,
  wss: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): boolean {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== '/ws') return false;
  const origin = request.headers.origin;
  const ownOrigins = [`http://${request.headers.host}`, `https://${request.headers.host}`];
  // Browsers always send Origin on a WebSocket handshake; a foreign one is cross-site hijacking.
  if (origin !== undefined && !ownOrigins.includes(origin) && !parts.allowedOrigins.includes(origin)) {
    rejectUpgrade(socket, 403, 'Forbidden');
    return true;
  }
  void upgradeAs(parts, wss, request, socket, head).catch((error: unknown) => {
    parts.log('realtime: the upgrade failed', error);
    socket.destroy();
  });
  return true;
}

/** The principal from the request (the session service may ask the database), then the socket. */
async function upgradeAs(
  parts: HubParts,
  wss: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  // Nobody listens on the raw socket while the session is looked up: a peer that goes away
  // meanwhile must not raise an unheard 'error'.
  const gone = () => socket.destroy();
  socket.on('error', gone);
  const pending: Resolving = { ended: new Set() };
  parts.resolving.add(pending);
  let principal: SocketPrincipal;
  try {
    principal = await parts.resolvePrincipal(request);
  } catch (error) {
    parts.log('realtime: could not resolve the socket principal', error);
    rejectUpgrade(socket, 500, 'Internal Server Error');
    return;
  } finally {
    parts.resolving.delete(pending);
    socket.off('error', gone);
  }
  if (socket.destroyed) return;
  // Its session ended while it was looked up: the socket starts as a visitor's.
  if (principal.sessionPublicId !== undefined && pending.ended.has(principal.sessionPublicId)) principal = {};
  wss.handleUpgrade(request, socket, head, (ws) => attach(parts, ws, principal));
}
