import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClassifiedRoute, loadRouteTable } from './route-table.ts';
import { buildFixtures, type Fixtures, type PersonName } from './support-fixtures.ts';
import { type SampleRequest, sampleFor, sendSample } from './support-requests.ts';

// The authorisation matrix (issue 16), generated from the app's own route table: every route that
// names an object is tried as its owner (the fixture is right), as another ordinary person, a
// visitor, a suspended and a banned person; every moderator route as ordinary people; every
// private route as a visitor. Refusals are 401/403/404 with the JSON error envelope and none of
// the owner's data. The banned person holds a session made directly: a ban written without
// ending the sessions (or one the spec's banned screen keeps) must not open anything either.
// Refusals run first, then the owners' calls, which change state.

const { routes, problems } = await loadRouteTable();

let fx: Fixtures;
beforeAll(async () => {
  fx = await buildFixtures();
}, 60_000);
afterAll(() => fx?.t.close());

/** Other people than the owner: none of them is a party to anything A or B own. */
const OUTSIDERS: PersonName[] = ['C', 'suspended', 'banned'];
/** Ordinary people, the parties included, for the moderators' routes. */
const ORDINARY: PersonName[] = ['A', 'B', 'C', 'suspended', 'banned'];
const NOT_ALLOWED = [403, 404];

/**
 * Each call with a fresh session: a sign-in, a password reset or a sign-out elsewhere in the
 * matrix must not turn a later refusal into a mere 401.
 */
const headersOf = async (who: PersonName) => (await fx.people[who].newSession()).headers;

const send = async (
  route: ClassifiedRoute,
  who: PersonName | 'visitor',
  sample: SampleRequest,
  params?: Record<string, string>,
) =>
  sendSample(fx, route, sample, {
    ...(who === 'visitor' ? {} : { headers: await headersOf(who) }),
    ...(params ? { params } : {}),
  });

/** None of what A and B keep private: their e-mails, their chat, A's payment instructions. */
function expectNoSecrets(body: string, context: string) {
  for (const [name, secret] of Object.entries(fx.secrets)) {
    expect(body.includes(secret), `${context}: the answer carries ${name} (${secret})`).toBe(false);
  }
}

async function expectRefused(res: Response, statuses: number[], context: string) {
  const body = await res.text();
  expect(statuses, `${context}: answered ${res.status} ${body.slice(0, 300)}`).toContain(res.status);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  expect((JSON.parse(body) as { errors?: unknown[] }).errors?.length, context).toBeGreaterThan(0);
  expectNoSecrets(body, context);
}

/** A token of the issued shape that was never issued. */
const forgedToken = (token: string) => token.replace(/[0-9A-Za-z]/g, (c) => (c === 'a' ? 'b' : 'a'));

describe('the route table', () => {
  it('knows how to exercise every route (otherwise it says what to add)', () => {
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('is the real app’s, with its object and moderator routes', () => {
    expect(routes.length).toBeGreaterThan(90);
    expect(routes.filter((r) => r.objectAccess === 'owner').length).toBeGreaterThan(20);
    expect(routes.filter((r) => r.audience === 'staff').length).toBeGreaterThanOrEqual(5);
  });
});

describe('refused', () => {
  for (const route of routes) {
    const access = route.objectAccess;

    if (route.audience === 'public' && access !== 'token') {
      it(`${route.key}: public (allow-listed), with no one's private data`, async () => {
        const sample = await sampleFor(route.key, fx);
        for (const who of ['visitor', ...OUTSIDERS] as const) {
          const res = await send(route, who, sample);
          expect(res.status, `${who}: ${route.key}`).toBeLessThan(500);
          expectNoSecrets(await res.text(), `${who}: ${route.key}`);
        }
      });
      continue;
    }

    if (access === 'token') {
      it(`${route.key}: a token that was never issued opens nothing, for anyone`, async () => {
        const sample = await sampleFor(route.key, fx);
        const params = { token: forgedToken(sample.params?.token ?? '') };
        for (const who of ['visitor', ...OUTSIDERS] as const) {
          await expectRefused(await send(route, who, sample, params), [400, 404], `${who}: ${route.key}`);
        }
      });
      continue;
    }

    it(`${route.key}: a visitor is asked to sign in`, async () => {
      await expectRefused(await send(route, 'visitor', await sampleFor(route.key, fx)), [401], `visitor: ${route.key}`);
    });

    if (route.audience === 'staff') {
      it(`${route.key}: moderators only, the parties and owners included`, async () => {
        const sample = await sampleFor(route.key, fx);
        for (const who of ORDINARY) {
          await expectRefused(await send(route, who, sample), NOT_ALLOWED, `${who}: ${route.key}`);
        }
      });
    } else if (access === 'owner') {
      it(`${route.key}: nobody but the owner or a party`, async () => {
        const sample = await sampleFor(route.key, fx);
        for (const who of OUTSIDERS) {
          await expectRefused(await send(route, who, sample), NOT_ALLOWED, `${who}: ${route.key}`);
        }
      });
    }
  }

  // Routes that name another person's object in the body rather than the path.
  it('marking notifications read: only one’s own, others’ ids change nothing', async () => {
    const unread = async () =>
      (
        await fx.t.db.sql.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND is_read = 0',
          [fx.people.A.id],
        )
      )?.n;
    const before = await unread();
    for (const path of ['/rest/v1/notifications', '/rest/v1/notifications/reset-counters']) {
      for (const who of OUTSIDERS) {
        const res = await fx.send(path, {
          method: 'POST',
          headers: await headersOf(who),
          json: { ids: fx.notificationIds },
        });
        expect(res.status, `${who}: ${path}`).toBeLessThan(500);
        if (res.ok) expect(((await res.json()) as { data: { updated: number } }).data.updated).toBe(0);
      }
    }
    expect(await unread()).toBe(before);
  });

  it('revoking a device: another person’s session id ends nothing', async () => {
    const victim = await fx.people.A.newSession();
    for (const who of OUTSIDERS) {
      await fx.send('/rest/v1/users/sessions/revoke', {
        method: 'POST',
        headers: await headersOf(who),
        json: { id: victim.sessionPublicId },
      });
    }
    expect((await fx.send('/rest/v1/users/me', { headers: victim.headers })).status).toBe(200);
  });

  it('processing an avatar: another person’s upload is not theirs to use', async () => {
    for (const who of OUTSIDERS) {
      const res = await fx.send('/rest/v1/users/process-avatar', {
        method: 'POST',
        headers: await headersOf(who),
        json: { fileUrl: fx.pendingAvatar },
      });
      await expectRefused(res, [400, 403, 404], `${who}: process-avatar`);
    }
  });

  it('push keys: another person’s channels and public id are refused', async () => {
    for (const who of OUTSIDERS) {
      const own = await fx.send(`/trade/push-authorize/${fx.people.A.publicId}`, {
        method: 'POST',
        headers: await headersOf(who),
        json: {},
      });
      await expectRefused(own, NOT_ALLOWED, `${who}: push-authorize for A's id`);
      const renew = await fx.send('/account/re-auth-push-subscription', {
        method: 'POST',
        headers: await headersOf(who),
        json: { channels: [`notifications:${fx.people.A.publicId}`, `trade:${fx.trades.main}`] },
      });
      await expectRefused(renew, NOT_ALLOWED, `${who}: re-auth-push-subscription for A's channels`);
    }
  });
});

describe('the owner gets the normal answer (the fixtures are right)', () => {
  for (const route of routes.filter((r) => r.objectAccess !== undefined || r.audience === 'staff')) {
    it(`${route.key}`, async () => {
      const sample = await sampleFor(route.key, fx);
      const res = await send(route, sample.as, sample);
      const body = await res.clone().text();
      expect(res.status, `${sample.as}: ${body.slice(0, 300)}`).toBe(sample.status ?? 200);
      if (sample.as === 'visitor' || sample.as === 'C') expectNoSecrets(body, `${sample.as}: ${route.key}`);
      // Admins moderate too; a read shows it without spending the moderator's fixture.
      if (route.audience === 'staff' && route.method === 'GET')
        expect((await send(route, 'admin', sample)).status).toBe(200);
    });
  }
});
