import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { TEST_ORIGIN, type TestApp } from './test-app.ts';

/**
 * A browser's view of the API: keeps the cookies the server sets and echoes the CSRF cookie in
 * the header, as our pages do; `fixedHeaders` go with every request.
 */
export function browserSession(t: TestApp, ip = '198.51.100.20', fixedHeaders: Record<string, string> = {}) {
  const jar = new Map<string, string>([[CSRF_COOKIE, 'A'.repeat(43)]]);

  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

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

  const send = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    // Headers this browser always sends (its own user agent, a proxy's X-Forwarded-For).
    for (const [name, value] of Object.entries(fixedHeaders)) headers.set(name, value);
    headers.set('cookie', cookieHeader());
    headers.set(CSRF_HEADER, jar.get(CSRF_COOKIE) ?? '');
    return remember(await t.send(path, { ...init, headers, ip }));
  };

  return {
    jar,
    send,
    get: (path: string) => send(path),
    post: (path: string, json: unknown = {}) => send(path, { method: 'POST', json }),
    origin: TEST_ORIGIN,
  };
}

export const STRONG_PASSWORD = 'Correct-horse-42';

/** A browser session signed in to a demo account with its password, as the login form does. */
export async function signedInSession(t: TestApp, email = 'buyer@example.com', ip?: string) {
  const b = browserSession(t, ip);
  const res = await b.post('/rest/v1/auth/login', { email, password: DEMO_PASSWORD });
  expect(res.status, await res.clone().text()).toBe(200);
  return b;
}
