import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOffLimitsForKeys } from '../../server/http/api-key-auth.ts';
import { apiKeyClient } from '../support/api-key-client.ts';
import { type ClassifiedRoute, loadRouteTable } from './route-table.ts';
import { buildFixtures, type Fixtures } from './support-fixtures.ts';
import { fillPath, type SampleRequest, sampleFor } from './support-requests.ts';

// API keys against the whole route table (issue 21): a route added tomorrow is covered the day it
// is added. Every route no key may reach (account security, withdrawals, moderation, identity
// review, key management) refuses a correctly signed request of a trade key; every mutating route
// refuses a read key without changing anything; every GET the owner A may make answers A's read
// key as it answers A's session. Multipart bodies are refused to keys.

const { routes } = await loadRouteTable();

let fx: Fixtures;
beforeAll(async () => {
  fx = await buildFixtures();
}, 60_000);
afterAll(() => fx?.t.close());

type Key = { id: string; secret: string };

let signedSoFar = 0;
/** The suite sends more than a key's minute allows: a minute passes every 100 requests. */
function nextMinuteNow() {
  signedSoFar += 1;
  if (signedSoFar % 100 === 0) fx.t.clock.now += 60_000;
}

/** The sample sent as A's bot would send it: signed with `key`, no cookie, no CSRF token. */
function sendSigned(route: ClassifiedRoute, sample: SampleRequest, key: Key): Promise<Response> {
  const path = fillPath(route.path, sample.params ?? {});
  const pathAndQuery = `${path}${sample.query ? `?${new URLSearchParams(sample.query)}` : ''}`;
  nextMinuteNow();
  const client = apiKeyClient(fx.t, key.id, key.secret);
  if (sample.multipart) {
    return fx.sendRaw(pathAndQuery, {
      method: route.method,
      headers: client.sign(route.method, pathAndQuery),
      body: sample.multipart(),
    });
  }
  const body = sample.json !== undefined ? JSON.stringify(sample.json) : '';
  const headers: Record<string, string> = client.sign(route.method, pathAndQuery, body);
  if (body) headers['content-type'] = 'application/json';
  return fx.sendRaw(pathAndQuery, { method: route.method, headers, ...(body ? { body } : {}) });
}

const errorKey = async (res: Response) => ((await res.json()) as { errors: { message: string }[] }).errors[0]?.message;
const mutating = (route: ClassifiedRoute) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method);

describe('routes no key may reach', () => {
  for (const route of routes) {
    if (!isOffLimitsForKeys(route.path.replace(/:\w+/g, 'x'))) continue;
    it(`${route.key}: refused to a trade key`, async () => {
      const res = await sendSigned(route, await sampleFor(route.key, fx), fx.apiKeys.trade);
      expect(res.status, route.key).toBe(403);
      expect(await errorKey(res)).toBe('API keys cannot do this; use the website.');
    });
  }
});

describe('a read key', () => {
  for (const route of routes) {
    if (isOffLimitsForKeys(route.path.replace(/:\w+/g, 'x'))) continue;
    if (mutating(route)) {
      it(`${route.key}: refused, nothing changed`, async () => {
        const sample = await sampleFor(route.key, fx);
        const res = await sendSigned(route, sample, fx.apiKeys.read);
        expect(res.status, route.key).toBe(403);
        expect(await errorKey(res)).toMatch(/^(This key is read-only\.|Files cannot be uploaded with an API key)/);
      });
      continue;
    }
    it(`${route.key}: answers as A's session does`, async () => {
      const sample = await sampleFor(route.key, fx);
      if (sample.as !== 'A' && sample.as !== 'visitor') return;
      const res = await sendSigned(route, sample, fx.apiKeys.read);
      expect(res.status, `${route.key}: ${(await res.clone().text()).slice(0, 200)}`).toBe(sample.status ?? 200);
      expect(res.headers.get('ratelimit-limit'), route.key).not.toBeNull();
    });
  }
});
