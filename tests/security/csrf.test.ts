import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../server/http/csrf.ts';
import { TEST_ORIGIN } from '../support/test-app.ts';
import { loadRouteTable } from './route-table.ts';
import { buildFixtures, type Fixtures, type PersonName } from './support-fixtures.ts';
import { sampleFor, sendSample } from './support-requests.ts';

// CSRF (issue 16), generated from the route table: every route that changes state, sent signed
// in with a request that would otherwise pass, (a) without the X-CSRF-Token header, (b) with a
// token that is not the session's, (c) with the right token but a foreign Origin, (d) with the
// right token but Sec-Fetch-Site: cross-site. Each is 403 CSRF_TOKEN_MISMATCH
// (server/http/csrf.ts, server/http/errors.ts) and writes nothing: SQLite's total_changes() of the
// app's only connection stays put. Then the same request with the token passes the check, which
// proves the token was the only thing wrong.

const { routes } = await loadRouteTable();
const mutating = routes.filter((r) => r.mutating);

let fx: Fixtures;
beforeAll(async () => {
  fx = await buildFixtures();
}, 60_000);
afterAll(() => fx?.t.close());

// SQLite's own counter: the security project runs on SQLite only (vitest.config.ts).
const writes = async () => (await fx.t.db.sql.get<{ n: number }>('SELECT total_changes() AS n'))?.n;

const FOREIGN_ORIGIN = 'https://evil.example';

/** The four ways a request from another site (or a script without the token) looks. */
const VARIANTS: {
  name: string;
  headers: (session: { cookie: string; csrfToken: string }) => Record<string, string>;
}[] = [
  { name: 'without the token header', headers: ({ cookie }) => ({ cookie, origin: TEST_ORIGIN }) },
  {
    name: 'with a token that is not the session’s',
    headers: ({ cookie }) => ({ cookie, origin: TEST_ORIGIN, [CSRF_HEADER]: 'B'.repeat(43) }),
  },
  {
    name: `with the token but Origin ${FOREIGN_ORIGIN}`,
    headers: ({ cookie, csrfToken }) => ({ cookie, origin: FOREIGN_ORIGIN, [CSRF_HEADER]: csrfToken }),
  },
  {
    name: 'with the token but Sec-Fetch-Site: cross-site',
    headers: ({ cookie, csrfToken }) => ({ cookie, 'sec-fetch-site': 'cross-site', [CSRF_HEADER]: csrfToken }),
  },
];

it('covers every route that changes state', () => {
  expect(mutating.length).toBeGreaterThan(50);
});

describe.each(mutating.map((route) => [route.key, route] as const))('%s', (_, route) => {
  // Signed in as the person the request is for; a visitor's request (login, register…) as C.
  const person = (who: PersonName | 'visitor'): PersonName => (who === 'visitor' ? 'C' : who);

  it.each(VARIANTS.map((variant) => [variant.name, variant] as const))('is refused %s', async (_, variant) => {
    const sample = await sampleFor(route.key, fx);
    const session = await fx.people[person(sample.as)].newSession();
    const before = await writes();
    const res = await sendSample(fx, route, sample, { headers: variant.headers(session), raw: true });
    const body = (await res.json()) as { errors?: { code: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(403);
    expect(body.errors?.[0]?.code).toBe('CSRF_TOKEN_MISMATCH');
    expect(await writes(), 'nothing was written').toBe(before);
  });

  it('passes the check with the session’s token from our own origin', async () => {
    const sample = await sampleFor(route.key, fx);
    const session = await fx.people[person(sample.as)].newSession();
    const res = await sendSample(fx, route, sample, { headers: session.headers });
    const body = await res.text();
    expect(body, `${res.status}`).not.toContain('CSRF_TOKEN_MISMATCH');
  });
});
