import { generateSync } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_ACCOUNT } from '../../server/services/accounts/throttle.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';

// Wrong release codes count like every other second-factor code (docs/security.md): the check
// runs before the trade's transaction, so its failure is kept even though the release is refused;
// 20 guesses in parallel evaluate at most the limit, and the coins stay in escrow throughout.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
});
afterEach(() => t?.close());

async function tradeWithReleaseCode() {
  const setup = await vendor.post('/rest/v1/users/2fa/setup');
  const { secret } = (await setup.json()).data as { secret: string };
  const code = (offset = 0) => generateSync({ secret, epoch: Math.floor((t.clock.now + offset) / 1000) });
  expect((await vendor.post('/rest/v1/users/2fa/confirm', { code: code() })).status).toBe(200);
  const offer = await f.createOffer(vendor);
  const trade = await f.startTrade(buyer, offer);
  return { path: `/rest/v1/trade/${trade.hash}/release`, right: code(30_000) };
}

describe('release codes', () => {
  it('counts wrong codes: past the limit even the right one waits, and nothing was released', async () => {
    const { path, right } = await tradeWithReleaseCode();
    const wrong = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 20 }, () => vendor.post(path, { code: wrong })));
    const evaluated = answers.filter((res) => res.status === 400).length;
    expect(evaluated).toBeLessThanOrEqual(MAX_FAILURES_PER_ACCOUNT);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(20 - evaluated);
    const late = await vendor.post(path, { code: right });
    expect(late.status).toBe(429);
    expect((await errorOf(late)).code).toBe('RATE_LIMITED');
    expect(await f.balance('buyer@example.com')).toBe(0);
  });
});
