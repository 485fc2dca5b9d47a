import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// A merchant's webhook receiver on 127.0.0.1 for the webhook tests (issue 21): it records every
// request and answers as the test says, per path: echo the challenge (header or JSON body), answer
// a wrong one, fail with a status, redirect, or never answer.

export type Behaviour =
  | 'echo-header'
  | 'echo-body'
  | 'wrong-challenge'
  | 'no-challenge'
  | { status: number }
  | 'redirect'
  | 'hang';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startReceiver() {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const behaviour = behaviours.get(path) ?? 'echo-header';
      const challenge = String(req.headers['x-webhook-challenge'] ?? '');
      if (behaviour === 'hang') return;
      if (behaviour === 'redirect') {
        res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        return;
      }
      if (typeof behaviour === 'object') {
        res.writeHead(behaviour.status).end('no');
        return;
      }
      if (behaviour === 'echo-header') res.writeHead(200, { 'x-webhook-challenge': challenge }).end('ok');
      else if (behaviour === 'echo-body')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge }));
      else if (behaviour === 'wrong-challenge') res.writeHead(200, { 'x-webhook-challenge': 'nope' }).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    /** How requests to `path` are answered from now on. */
    behave: (path: string, behaviour: Behaviour) => behaviours.set(path, behaviour),
    /** Forgets what was received and how to answer: every path echoes the challenge again. */
    reset: () => {
      received.length = 0;
      behaviours.clear();
    },
    /** The requests to `path` (all when none is given). */
    to: (path?: string) => (path ? received.filter((r) => r.path === path) : received),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
