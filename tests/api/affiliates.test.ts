import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { earningsOf, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser, type TestUser } from '../support/users.ts';

// Affiliate earnings (issue 20, decision 114): a completed trade's escrow fee is shared with the
// referrers of its parties, 50 % to tier 1 and 10 % to tier 2, from fee income on the ledger in
// the release's own transaction. 5,000 USD at 100,000 USD/BTC is 5,000,000 sat; the seller's 1 %
// fee is 50,000 sat.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const FEE = 50_000;
const ctx = systemContext('test');

beforeEach(async () => {
  t = await createTestApp({ config: { DISPUTE_WAIT_MINUTES: 30 } });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(100_000_000));
  await f.verifyFully(BUYER);
  await f.verifyFully(VENDOR);
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

/** An affiliate (or, with `affiliate: false`, someone with a referral link who never joined). */
async function person(options: { affiliate?: boolean; sellSide?: boolean; status?: 'banned' } = {}) {
  const user = await createUser(t, options.status ? { status: options.status } : {});
  await f.sql(
    'UPDATE users SET is_affiliate = ?, is_affiliate_pay_for_sell_side = ? WHERE id = ?',
    options.affiliate === false ? 0 : 1,
    options.sellSide ? 1 : 0,
    user.id,
  );
  return user;
}

const refer = async (referrer: TestUser, email: string) =>
  f.sql('UPDATE users SET referred_by_id = ? WHERE id = ?', referrer.id, await f.userId(email));
const earnings = async (user: TestUser, currency: 'BTC' | 'USDT' = 'BTC') =>
  (await t.services.ledger.account(ctx, earningsOf(user.id, currency)))?.balance ?? 0;
const feeIncome = async () => (await t.services.ledger.account(ctx, systemAccount('fee_income', 'BTC')))?.balance ?? 0;

/** A 5,000 USD trade the buyer starts, pays and the vendor releases. */
const completedTrade = () => f.completedTrade(buyer, vendor, offer, '5000');

/** A 5,000 USD trade paid, disputed and decided for `winner`. */
async function disputedTrade(winner: 'buyer' | 'seller') {
  const trade = await f.startTrade(buyer, offer, '5000');
  const path = `/rest/v1/trade/${trade.hash}`;
  await buyer.post(`${path}/paid`);
  t.clock.now += 31 * 60_000;
  await buyer.post(`${path}/dispute`, { dispute_reason_id: 'paid_not_released', dispute_reason_text: 'Paid.' });
  const moderator = await f.signedIn('moderator@example.com');
  const res = await moderator.post(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner });
  expect(res.status, await res.clone().text()).toBe(200);
  return trade;
}

describe('earnings at release', () => {
  it('shares the fee of a referred buyer’s trade: 50 % to tier 1, 10 % to tier 2, from fee income', async () => {
    const tier2 = await person();
    const tier1 = await person();
    await f.sql('UPDATE users SET referred_by_id = ? WHERE id = ?', tier2.id, tier1.id);
    await refer(tier1, BUYER);
    const trade = await completedTrade();
    expect(await earnings(tier1)).toBe(25_000);
    expect(await earnings(tier2)).toBe(5_000);
    expect(await feeIncome()).toBe(FEE - 30_000);
    expect(await f.balance(BUYER)).toBe(5_000_000);
    expect(await verifyLedger(t.db)).toEqual([]);
    // One affiliate_share transaction, in the same commit as the release, keyed by the escrow.
    const shares = await t.db.sql.all<{ kind: string }>(
      `SELECT kind FROM ledger_transactions WHERE idempotency_key = ?`,
      [`trade:${trade.hash}:affiliate`],
    );
    expect(shares).toEqual([{ kind: 'affiliate_share' }]);
    const rows = await t.db.sql.all(
      'SELECT affiliate_id AS affiliateId, tier, referral_id AS referralId, side, amount, usd_cents AS usdCents FROM affiliate_earnings ORDER BY tier',
    );
    const buyerId = await f.userId(BUYER);
    expect(rows).toEqual([
      { affiliateId: tier1.id, tier: 1, referralId: buyerId, side: 'buy', amount: 25_000, usdCents: 2_500 },
      { affiliateId: tier2.id, tier: 2, referralId: tier1.id, side: 'buy', amount: 5_000, usdCents: 500 },
    ]);
    // The trade is credited to tier 1; the buyer they referred sees it, the other party does not.
    const seen = async (b: Browser) => (await (await b.get(`/rest/v1/trade/${trade.hash}`)).json()).data.affiliateId;
    expect(await seen(buyer)).toBe(tier1.publicId);
    expect(await seen(vendor)).toBeNull();
    // affiliateBalance is the BTC earnings account.
    const me = await (await (await tier1.session()).get('/rest/v1/users/me')).json();
    expect(me.data).toMatchObject({ isAffiliate: true, affiliateBalance: '0.00025000' });
    // Each affiliate hears what they earned, linked to their referral table.
    await t.services.notificationsSettled();
    const inbox = async (user: TestUser) =>
      (await (await (await user.session()).get('/rest/v1/notifications')).json()).data as {
        type: string;
        link: string;
        message: string;
      }[];
    const buyerName = (await t.db.sql.get<{ u: string }>('SELECT username AS u FROM users WHERE email = ?', [BUYER]))
      ?.u;
    expect((await inbox(tier1)).find((n) => n.type === 'affiliate_earned')).toMatchObject({
      link: '/affiliates',
      message: `You earned 0.00025000 BTC from a trade of ${buyerName}`,
    });
    expect((await inbox(tier2)).find((n) => n.type === 'affiliate_earned')?.message).toBe(
      `You earned 0.00005000 BTC from a trade of ${buyerName}`,
    );
  });

  it('shares a seller’s fee only with an affiliate who earns on sales; both sides halve the fee', async () => {
    const buyerSide = await person();
    const sellerSide = await person();
    await refer(buyerSide, BUYER);
    await refer(sellerSide, VENDOR);
    await completedTrade();
    expect([await earnings(buyerSide), await earnings(sellerSide)]).toEqual([25_000, 0]);
    await f.sql('UPDATE users SET is_affiliate_pay_for_sell_side = 1 WHERE id = ?', sellerSide.id);
    await completedTrade();
    // Each side's 50 % of half the fee: 12,500 sat.
    expect([await earnings(buyerSide), await earnings(sellerSide)]).toEqual([37_500, 12_500]);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('pays nothing to people who never joined, to banned affiliates, or to an affiliate who is a party', async () => {
    const never = await person({ affiliate: false });
    await refer(never, BUYER);
    await completedTrade();
    const banned = await person({ status: 'banned' });
    await refer(banned, BUYER);
    await completedTrade();
    // The vendor referred the buyer: a referrer's own trade with their referral is no referral income.
    await f.sql('UPDATE users SET is_affiliate = 1, referred_by_id = NULL WHERE email = ?', VENDOR);
    await f.sql('UPDATE users SET referred_by_id = ? WHERE email = ?', await f.userId(VENDOR), BUYER);
    await completedTrade();
    expect(await t.db.sql.all('SELECT id FROM affiliate_earnings')).toEqual([]);
    expect(await feeIncome()).toBe(3 * FEE);
  });

  it('a dispute decided for the buyer shares only the buyer’s side; one decided for the seller nothing', async () => {
    const buyerSide = await person();
    const sellerSide = await person({ sellSide: true });
    await refer(buyerSide, BUYER);
    await refer(sellerSide, VENDOR);
    await disputedTrade('buyer');
    // The seller lost the dispute: their affiliate earns nothing; the buyer's side has the whole fee.
    expect([await earnings(buyerSide), await earnings(sellerSide)]).toEqual([25_000, 0]);
    await disputedTrade('seller');
    expect([await earnings(buyerSide), await earnings(sellerSide)]).toEqual([25_000, 0]);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('counts completed trades and their volume on both parties', async () => {
    await completedTrade();
    const row = await t.db.sql.get<{ cents: number }>('SELECT traded_usd_cents AS cents FROM users WHERE email = ?', [
      BUYER,
    ]);
    expect(row?.cents).toBe(500_000);
  });
});

describe('moving earnings to the wallet', () => {
  it('refuses under the minimum, then moves everything once per key, even for racing requests', async () => {
    const affiliate = await person();
    const browser = await affiliate.session();
    const early = await browser.post('/rest/v1/affiliates/payout', { idempotency_key: 'first-click-0001' });
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: 'AFFILIATE_BALANCE_TOO_LOW' });
    await refer(affiliate, BUYER);
    await completedTrade();
    const racing = await Promise.all(
      [1, 2, 3].map(() => browser.post('/rest/v1/affiliates/payout', { idempotency_key: 'payout-click-0001' })),
    );
    const answers = await Promise.all(racing.map(async (res) => ({ status: res.status, body: await res.json() })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const ids = new Set(answers.map((a) => a.body.data.transactionId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.body.data.replayed)).toHaveLength(1);
    expect(answers[0]?.body.data.moved).toEqual({ BTC: '0.00025000', USDT: '0.000000' });
    expect(await earnings(affiliate)).toBe(0);
    expect((await t.services.ledger.account(ctx, walletOf(affiliate.id, 'BTC')))?.balance).toBe(25_000);
    // A new key finds nothing left to move.
    const again = await browser.post('/rest/v1/affiliates/payout', { idempotency_key: 'payout-click-0002' });
    expect(again.status).toBe(409);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('checks the key', async () => {
    const browser = await (await person()).session();
    const res = await browser.post('/rest/v1/affiliates/payout', { idempotency_key: 'x' });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'idempotency_key' });
  });
});

describe('joining and the summary', () => {
  it('sets the role; the summary has the absolute link, counts and earnings', async () => {
    const someone = await person({ affiliate: false });
    const browser = await someone.session();
    const before = (await (await browser.get('/rest/v1/affiliates/summary')).json()).data;
    expect(before).toMatchObject({ isAffiliate: false, tier1Count: 0, canPayOut: false });
    const joined = (await (await browser.post('/rest/v1/affiliates/join')).json()).data;
    expect(joined.isAffiliate).toBe(true);
    expect(joined.link).toMatch(/^https?:\/\/[^/]+\/\?ref=[a-z0-9]+$/);
    await refer(someone, BUYER);
    await completedTrade();
    const after = (await (await browser.get('/rest/v1/affiliates/summary')).json()).data;
    expect(after).toMatchObject({
      tier1Count: 1,
      earned: { BTC: '0.00025000', USDT: '0.000000', usd: '25.00' },
      thisMonth: { BTC: '0.00025000' },
      balance: { BTC: '0.00025000' },
      rates: { tier1: 50, tier2: 10 },
      canPayOut: true,
    });
    expect((await t.send('/rest/v1/affiliates/summary')).status).toBe(401);
  });
});
