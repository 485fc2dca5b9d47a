// A child of tests/bench/fanout.ts: `node tests/bench/fanout-server.ts hub|bare` listens on
// 127.0.0.1 and prints `ready <port>`; then, line by line on stdin, `burst <rounds>` or
// `paced <rounds> <ms>` publishes one notification per connected socket per round, and `rss`
// prints the process's resident memory. `hub` goes through the event bus and the realtime hub
// (each socket on its own `notifications:<usr_…>` channel, as the bell's); `bare` sends the very
// same frames with `ws` directly, the baseline.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { WebSocketServer } from 'ws';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { createRealtimeHub } from '../../server/realtime/hub.ts';

const mode = process.argv[2];
const channelOf = (i: number) => `notifications:usr_${String(i).padStart(16, '0')}`;

const server = createServer();
const bus = createInProcessBus();
const bareSockets: import('ws').WebSocket[] = [];
if (mode === 'hub') {
  const hub = createRealtimeHub({ bus, authorize: (channel) => channel.startsWith('notifications:') });
  server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
} else {
  const wss = new WebSocketServer({ server, path: '/ws' });
  wss.on('connection', (ws) => bareSockets.push(ws));
}

const payload = (i: number) => ({
  id: `ntf_${String(i).padStart(16, '0')}`,
  type: 'trade_msg_received',
  link: '/trade/Tr4deHash01',
  count: 1,
  message: 'New message from vendor',
  subtext: 'Unread messages: 1',
  isRead: false,
  sentAt: performance.timeOrigin + performance.now(),
});

/** One notification to every socket: through the bus and hub, or straight to each socket. */
function round(sockets: number) {
  for (let i = 0; i < sockets; i++) {
    const event = { type: 'notification', payload: payload(i) };
    if (mode === 'hub') bus.publish(channelOf(i), event);
    else {
      const ws = bareSockets[i];
      ws?.send(JSON.stringify({ type: 'event', channel: channelOf(i), event }));
    }
  }
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, a = '0', b = '0', c = '0'] = line.split(' ');
  const sockets = Number(c);
  if (command === 'burst') {
    for (let r = 0; r < Number(a); r++) {
      round(sockets);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } else if (command === 'paced') {
    for (let r = 0; r < Number(a); r++) {
      round(sockets);
      await new Promise((resolve) => setTimeout(resolve, Number(b)));
    }
  } else if (command === 'rss') {
    console.log(`rss ${process.memoryUsage().rss}`);
  }
});

server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
