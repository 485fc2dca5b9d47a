import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { SocketPrincipal } from './hub.ts';
import { type Client, type HubParts, send } from './hub-parts.ts';
import { leave } from './rooms.ts';
import { onMessage } from './socket-messages.ts';

// The handshake on /ws: the origin check, the principal from the request, then the socket's life.

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A connected socket: its frames, its pongs, and its channels left when it closes. */
function attach(parts: HubParts, ws: WebSocket, principal: SocketPrincipal): void {
  const client: Client = { socket: ws, principal, channels: new Set(), alive: true, viaKey: new Set() };
  parts.clients.add(client);
  ws.on('pong', () => {
    client.alive = true;
  });
  ws.on('message', (data, isBinary) => {
    client.alive = true;
    if (isBinary) return send(client, { type: 'error', code: 'BAD_MESSAGE' });
    onMessage(parts, client, data.toString());
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
  let principal: SocketPrincipal;
  try {
    principal = parts.resolvePrincipal(request);
  } catch (error) {
    parts.log('realtime: could not resolve the socket principal', error);
    rejectUpgrade(socket, 500, 'Internal Server Error');
    return true;
  }
  wss.handleUpgrade(request, socket, head, (ws) => attach(parts, ws, principal));
  return true;
}
