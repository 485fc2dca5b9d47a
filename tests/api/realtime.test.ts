import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import type { RealtimeHub } from '../../server/realtime/hub.ts';
import { type StartedHub, startHub } from '../support/hub.ts';

let started: StartedHub;
let hub: RealtimeHub;
let bus: EventBus;
let port: number;
const sockets: WebSocket[] = [];

async function start(options: { heartbeatMs?: number; authorize?: (channel: string) => boolean } = {}) {
  bus = createInProcessBus();
  started = await startHub({
    bus,
    heartbeatMs: options.heartbeatMs ?? 30_000,
    ...(options.authorize ? { authorize: options.authorize } : {}),
  });
  ({ hub, port } = started);
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await started.close();
});

function connect(path = '/ws', headers: Record<string, string> = {}, autoPong = true): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers, autoPong });
    sockets.push(ws);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

async function request(ws: WebSocket, message: unknown) {
  const reply = nextMessage(ws);
  ws.send(JSON.stringify(message));
  return reply;
}

describe('realtime hub', () => {
  it('lets anyone join the public rates channel and delivers published events', async () => {
    await start();
    const ws = await connect();
    expect(await request(ws, { type: 'subscribe', channel: 'rates' })).toEqual({
      type: 'subscribed',
      channel: 'rates',
    });
    const event = nextMessage(ws);
    bus.publish('rates', { type: 'rates', payload: { BTC: 1 } });
    expect(await event).toEqual({ type: 'event', channel: 'rates', event: { type: 'rates', payload: { BTC: 1 } } });
  });

  it('refuses private channels to anonymous sockets', async () => {
    await start();
    const ws = await connect();
    expect(await request(ws, { type: 'subscribe', channel: 'notifications:usr_1' })).toEqual({
      type: 'error',
      code: 'CHANNEL_FORBIDDEN',
      channel: 'notifications:usr_1',
    });
  });

  it('asks the authorisation hook for every non-public channel', async () => {
    await start({ authorize: (channel) => channel === 'trade:abc' });
    const ws = await connect();
    expect((await request(ws, { type: 'subscribe', channel: 'trade:abc' })).type).toBe('subscribed');
    expect((await request(ws, { type: 'subscribe', channel: 'trade:xyz' })).code).toBe('CHANNEL_FORBIDDEN');
  });

  it('stops delivering after unsubscribe and answers pings', async () => {
    await start();
    const ws = await connect();
    await request(ws, { type: 'subscribe', channel: 'rates' });
    expect(await request(ws, { type: 'unsubscribe', channel: 'rates' })).toEqual({
      type: 'unsubscribed',
      channel: 'rates',
    });
    bus.publish('rates', { type: 'rates', payload: 1 });
    expect(await request(ws, { type: 'ping' })).toEqual({ type: 'pong' });
  });

  it('answers malformed messages with BAD_MESSAGE and keeps the socket', async () => {
    await start();
    const ws = await connect();
    const reply = nextMessage(ws);
    ws.send('not json');
    expect(await reply).toEqual({ type: 'error', code: 'BAD_MESSAGE' });
    expect((await request(ws, { type: 'subscribe', channel: '../etc' })).code).toBe('BAD_MESSAGE');
    expect((await request(ws, { type: 'dance' })).code).toBe('BAD_MESSAGE');
  });

  it('refuses a handshake from another site and paths other than /ws', async () => {
    await start();
    await expect(connect('/ws', { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect('/other')).rejects.toThrow();
    await expect(connect('/ws', { origin: `http://127.0.0.1:${port}` })).resolves.toBeInstanceOf(WebSocket);
  });

  it('drops a socket that stops answering pings', async () => {
    await start({ heartbeatMs: 50 });
    // A client that never answers pings looks exactly like a vanished peer.
    const ws = await connect('/ws', {}, false);
    const closed = new Promise((resolve) => ws.once('close', resolve));
    await closed;
    await vi.waitFor(() => expect(hub.connectionCount()).toBe(0));
  });
});
