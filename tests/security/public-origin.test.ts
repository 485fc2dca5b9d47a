import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/services/accounts/throttle.ts';
import type { ServicesConfig } from '../../server/services/container.ts';
import { STRONG_PASSWORD } from '../support/browser-session.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// Issue 16, item 1: a link the server mails never comes from the request. An attacker who sends
// `Host: evil.example` (or X-Forwarded-Host) with someone's address to forgot-password must not
// receive the reset token through a link to their own host. Every request here is forged that way
// (URL, Host, X-Forwarded-Host and a matching Origin, so the CSRF check passes as it would for a
// script that is not a browser); the mails must name the configured origin only.

let t: TestApp;
afterEach(() => t?.close());

const EVIL = 'evil.example';
const EMAIL = 'buyer@example.com';

/** A request with a forged host, keeping the cookies the server sets (one attacker's client). */
function forgedClient(ip = '192.0.2.66', userAgent = 'Forger/1.0') {
  const jar = new Map<string, string>([[CSRF_COOKIE, 'A'.repeat(43)]]);
  return async (path: string, json?: unknown) => {
    const headers = new Headers({
      host: EVIL,
      'x-forwarded-host': EVIL,
      'x-forwarded-proto': 'https',
      origin: `http://${EVIL}`,
      'user-agent': userAgent,
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      [CSRF_HEADER]: jar.get(CSRF_COOKIE) ?? '',
    });
    const init: RequestInit = { method: json === undefined ? 'GET' : 'POST', headers };
    if (json !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = JSON.stringify(json);
    }
    const res = await t.app.request(`http://${EVIL}${path}`, init, { incoming: { socket: { remoteAddress: ip } } });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(eq + 1)) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return res;
  };
}

/** Mail may leave just after the answer (forgot-password does not wait for it). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Every absolute URL in the mails sent so far. */
const mailedUrls = () => t.sent.flatMap((m) => m.text.match(/https?:\/\/[^\s)]+/g) ?? []);

/** All mailed links point at `origin` (the DB-IP credit excepted), and nothing names the forged host. */
function expectOnlyOrigin(origin: string) {
  expect(t.sent.some((m) => m.text.includes(EVIL) || (m.html ?? '').includes(EVIL))).toBe(false);
  const ours = mailedUrls().filter((url) => !url.startsWith('https://db-ip.com'));
  expect(ours.length).toBeGreaterThan(0);
  for (const url of ours) expect(url.startsWith(`${origin}/`), url).toBe(true);
}

const configurations: [string, Partial<ServicesConfig>, string][] = [
  ['PUBLIC_ORIGIN set', { PUBLIC_ORIGIN: 'https://coinfair.example' }, 'https://coinfair.example'],
  ['PUBLIC_ORIGIN unset', { PUBLIC_ORIGIN: undefined, HOST: '127.0.0.1', PORT: 8080 }, 'http://127.0.0.1:8080'],
];

describe.each(configurations)('links in mail with %s', (_name, config, origin) => {
  it('forgot-password mails a reset link on the configured origin, and so does the changed-password notice', async () => {
    t = await createTestApp({ config });
    const send = forgedClient();
    expect((await send('/rest/v1/auth/forgot-password', { email: EMAIL })).status).toBe(200);
    await settle();
    const link = t.sent.at(-1)?.text.match(/\S+\/reset-password\?token=([\w-]+)/);
    expect(link?.[0]).toBe(`${origin}/reset-password?token=${link?.[1]}`);

    expect((await send('/rest/v1/auth/reset-password', { token: link?.[1], password: STRONG_PASSWORD })).status).toBe(
      200,
    );
    expect(t.sent.at(-1)?.subject).toContain('password was changed');
    expectOnlyOrigin(origin);
  });

  it('register and resend-confirmation mail a confirmation link on the configured origin', async () => {
    t = await createTestApp({ config });
    const send = forgedClient();
    expect((await send('/rest/v1/auth/register', { email: 'ada@example.org', password: STRONG_PASSWORD })).status).toBe(
      201,
    );
    expect((await send('/rest/v1/auth/resend-verification', {})).status).toBe(200);
    const links = t.sent.map((m) => m.text.match(/\S+\/auth\/verify-email\?token=[\w-]+/)?.[0]);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link?.startsWith(`${origin}/auth/verify-email?token=`)).toBe(true);
    expectOnlyOrigin(origin);
  });

  it('a sign-in from a new device mails its review link on the configured origin', async () => {
    t = await createTestApp({ config });
    // The account's first device is trusted without a mail; the forged one is new.
    expect(
      (
        await forgedClient('198.51.100.1', 'Owner/1.0')('/rest/v1/auth/login', {
          email: EMAIL,
          password: DEMO_PASSWORD,
        })
      ).status,
    ).toBe(200);
    expect(t.sent).toHaveLength(0);
    expect((await forgedClient()('/rest/v1/auth/login', { email: EMAIL, password: DEMO_PASSWORD })).status).toBe(200);
    const link = t.sent.at(-1)?.text.match(/\S+\/review-device\?token=[0-9a-f]+/)?.[0];
    expect(link?.startsWith(`${origin}/review-device?token=`)).toBe(true);
    expectOnlyOrigin(origin);
  });

  it('the "someone is guessing your password" mail links to the configured origin', async () => {
    t = await createTestApp({ config });
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      await forgedClient(`192.0.2.${i}`)('/rest/v1/auth/login', { email: EMAIL, password: 'Wrong-password-1' });
    }
    await settle();
    expect(t.sent.map((m) => m.subject)).toEqual([expect.stringMatching(/guess/i)]);
    expectOnlyOrigin(origin);
  });
});

it('the site origin of the container is the configured one, never a request’s', async () => {
  t = await createTestApp({ config: { PUBLIC_ORIGIN: 'https://coinfair.example/some/path' } });
  expect(t.services.siteOrigin.origin).toBe('https://coinfair.example');
  expect(t.services.siteOrigin.url('/wallet')).toBe('https://coinfair.example/wallet');
});
