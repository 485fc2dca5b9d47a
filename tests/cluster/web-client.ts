import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';

// A person's client as our pages are: one cookie jar, the CSRF cookie echoed in its header, and
// free to talk to any address of the deployment (process A, process B or the proxy), which is
// the point: what one process set must hold on the others.

export type WebClient = ReturnType<typeof webClient>;

export function webClient() {
  // Signed out, any well-formed token works as a double submit; signing in replaces it.
  const jar = new Map<string, string>([[CSRF_COOKIE, randomBytes(32).toString('base64url')]]);

  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attributes.some((a) => /max-age=0$/i.test(a.trim())) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };

  const send = async (base: string, path: string, method = 'GET', json?: unknown) => {
    const headers: Record<string, string> = { cookie: cookieHeader(), [CSRF_HEADER]: jar.get(CSRF_COOKIE) ?? '' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method,
      headers,
      redirect: 'manual',
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    return remember(res);
  };

  return {
    jar,
    cookieHeader,
    get: (base: string, path: string) => send(base, path),
    post: (base: string, path: string, json: unknown = {}) => send(base, path, 'POST', json),
  };
}

/** The `data` of a JSON answer, failing with the status and body when it is not `status`. */
export async function dataOf<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export interface Frame {
  type: string;
  channel?: string;
  code?: string;
  event?: { type: string; payload: unknown };
}

/**
 * A socket on `/ws` of `base` with the client's cookies, keeping every frame it receives;
 * `waitFor` resolves with the first frame (past or future) that matches.
 */
export async function openSocket(base: string, client?: WebClient) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, {
    headers: client ? { cookie: client.cookieHeader() } : {},
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const frames: Frame[] = [];
  const waiting = new Set<() => void>();
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of waiting) wake();
  });

  /** The first frame matching `test`; fails after `withinMs` (generous: a bound, not a timing). */
  const waitFor = (test: (frame: Frame) => boolean, what: string, withinMs = 15_000) =>
    new Promise<Frame>((resolve, reject) => {
      const check = () => {
        const found = frames.find(test);
        if (!found) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`no ${what} within ${withinMs} ms; frames: ${JSON.stringify(frames)}`));
      }, withinMs);
      waiting.add(check);
      check();
    });

  const subscribe = async (channel: string) => {
    ws.send(JSON.stringify({ type: 'subscribe', channel }));
    return waitFor(
      (f) => f.channel === channel && (f.type === 'subscribed' || f.type === 'error'),
      `answer on ${channel}`,
    );
  };

  return { ws, frames, waitFor, subscribe, close: () => ws.terminate() };
}
