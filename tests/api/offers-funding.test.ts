import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import type { browserSession } from '../support/browser-session.ts';
import { deposit } from '../support/offer-funds.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

// A sell offer whose owner's wallet cannot cover its smallest trade with the escrow fee is
// `noCoins` (decision 121): its owner reads their balance and what the offer needs, nobody else
// does; listings, the owner's public list and the trade start leave it out, and a wallet change
// that crosses the need shows or hides it at once, cached searches or not.

type Browser = ReturnType<typeof browserSession>;

let t: TestApp;
let vendorUser: TestUser;
let vendor: Browser;
afterEach(() => t?.close());

beforeEach(async () => {
  t = await createTestApp();
  await t.db.sql.run(`UPDATE offers SET status = 'paused'`);
  await t.db.sql.run('UPDATE users SET last_seen_at = ?', [TEST_NOW]);
  await t.services.offers.invalidateSearches(systemContext('test'));
  vendorUser = await createUser(t, { vendor: true });
  vendor = await vendorUser.signIn();
});

/**
 * A fixed-price sell offer: 100,000 USD per bitcoin, from 50 USD, so its smallest trade is
 * 50,000 satoshi and the 1 % fee 500: the wallet needs 50,500 (src/lib/shared/offer-funding.ts).
 */
const NEED = 50_500;
async function fixedOffer(b: Browser, overrides: Record<string, unknown> = {}) {
  const res = await b.post('/rest/v1/offers', {
    type: 'sell',
    crypto_currency_code: 'BTC',
    currency: 'USD',
    payment_method: 'bank-transfer',
    price_type: 'fixed',
    fixed_price: '100000',
    fiat_min: '50',
    fiat_max: '1000',
    payment_window: 60,
    terms: 'Send from an account in your own name.',
    is_skip_warnings: true,
    ...overrides,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data as { hash: string; originalData: string } & Record<string, unknown>;
}

const offerAs = async (b: Browser | undefined, hash: string) => {
  const res = b ? await b.get(`/rest/v1/offers/${hash}`) : await t.send(`/rest/v1/offers/${hash}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    data: Record<string, unknown>;
    meta: { blocks: { code: string; message: string }[] };
  };
};
const listed = async (query = 'type=buy&currency=USD') =>
  ((await (await t.send(`/rest/v1/offers?${query}`)).json()).data as { hash: string }[]).map((o) => o.hash);
const publicList = async (b: Browser) =>
  ((await (await b.get(`/rest/v1/users/${vendorUser.username}/offers`)).json()).data as { hash: string }[]).map(
    (o) => o.hash,
  );

describe('an unfunded sell offer', () => {
  it('shows its owner the balance and the need, and everyone else only that it has no coins', async () => {
    const offer = await fixedOffer(vendor);
    expect((await offerAs(vendor, offer.hash)).data).toMatchObject({
      balance: 0,
      balanceNeeded: 0.000505,
      noCoins: true,
    });
    await deposit(t.services.ledger, vendorUser.id, 'BTC', 30_000);
    expect((await offerAs(vendor, offer.hash)).data).toMatchObject({ balance: 0.0003, noCoins: true });

    const buyer = await (await createUser(t)).signIn();
    for (const reader of [buyer, undefined]) {
      const { data } = await offerAs(reader, offer.hash);
      expect(data).toMatchObject({ balance: null, noCoins: true });
      expect(data).not.toHaveProperty('balanceNeeded');
    }
    // A buy offer needs nothing of its owner: the person who sells to it funds the trade.
    const buying = await fixedOffer(vendor, { type: 'buy', is_skip_warnings: false });
    expect((await offerAs(vendor, buying.hash)).data).toMatchObject({ balance: null, noCoins: false });
    expect(await listed('type=sell&currency=USD')).toEqual([buying.hash]);
  });

  it('tells the buyer the vendor lacks the coins, and refuses the trade with the same words', async () => {
    const offer = await fixedOffer(vendor);
    const buyer = await (await createUser(t, { verified: 'address' })).signIn();
    const { meta } = await offerAs(buyer, offer.hash);
    expect(meta.blocks).toEqual([
      expect.objectContaining({
        code: 'vendor_no_coins',
        message:
          'The vendor does not have enough BTC for this offer right now, so no trade can start. Try another offer.',
      }),
    ]);
    // Not "try a smaller amount": the smallest one cannot be covered either.
    const start = await buyer.post('/rest/v1/trade', {
      offer_hash: offer.hash,
      amount_fiat: '50',
      amount_btc: '0.0005',
      gold_terms: 0,
      original_data: offer.originalData,
    });
    expect(start.status).toBe(403);
    expect((await start.json()).errors[0].message).toMatch(/^The vendor does not have enough BTC/);
    // In German where the reader reads German.
    const german = (await (await buyer.get(`/rest/v1/offers/${offer.hash}?locale=de`)).json()).meta.blocks[0].message;
    expect(german).toMatch(/BTC/);
    expect(german).not.toMatch(/^The vendor/);
  });

  it('is left out of listings and the public list until a deposit covers it, at once, and again after a sendout', async () => {
    const offer = await fixedOffer(vendor);
    const buyer = await (await createUser(t)).signIn();
    // Cached from here on: every change below must drop the search itself.
    expect(await listed()).toEqual([]);
    expect(await publicList(buyer)).toEqual([]);
    expect(await publicList(vendor)).toEqual([offer.hash]);

    await deposit(t.services.ledger, vendorUser.id, 'BTC', NEED - 1);
    expect(await listed()).toEqual([]);
    await deposit(t.services.ledger, vendorUser.id, 'BTC', 1);
    // The check behind the posting runs after its commit: a moment, never a 10-second bucket.
    await expect.poll(() => listed(), { timeout: 5_000 }).toEqual([offer.hash]);
    expect(await publicList(buyer)).toEqual([offer.hash]);
    expect((await offerAs(buyer, offer.hash)).data).toMatchObject({ noCoins: false });

    // A sendout of a single satoshi leaves the wallet short again.
    await t.services.ledger.post(systemContext('test'), {
      kind: 'sendout',
      idempotencyKey: 'funding-test:out',
      legs: [
        { account: walletOf(vendorUser.id, 'BTC'), amount: -1 },
        { account: systemAccount('chain_out', 'BTC'), amount: 1 },
      ],
    });
    await expect.poll(() => listed(), { timeout: 5_000 }).toEqual([]);
    expect(await verifyLedger(t.db)).toEqual([]);
  });

  it('follows the need of a margin offer at the market price, and of a gift-card offer with its 5 % fee', async () => {
    // The test feed stands at 90,000 USD per bitcoin: at +0 % the 90 USD minimum is 100,000 satoshi.
    const margin = await fixedOffer(vendor, {
      price_type: 'margin',
      margin: '0',
      fiat_min: '90',
      fixed_price: undefined,
    });
    expect((await offerAs(vendor, margin.hash)).data).toMatchObject({ balanceNeeded: 0.00101, noCoins: true });
    await deposit(t.services.ledger, vendorUser.id, 'BTC', 101_000);
    await expect.poll(() => listed(), { timeout: 5_000 }).toEqual([margin.hash]);
    // Gift cards cost the seller 5 %: 50,000 satoshi and 2,500 of fee.
    const gift = await fixedOffer(vendor, { payment_method: 'amazon-gift-card' });
    expect((await offerAs(vendor, gift.hash)).data).toMatchObject({ balanceNeeded: 0.000525, noCoins: false });
    expect((await listed('type=buy&currency=USD&payment-method=amazon-gift-card')).length).toBe(1);
  });

  it("keeps the wallet copies the listing reads equal to the ledger through a trade's escrow", async () => {
    const offer = await fixedOffer(vendor);
    await deposit(t.services.ledger, vendorUser.id, 'BTC', 200_000);
    const buyer = await (await createUser(t, { verified: 'address' })).signIn();
    const start = await buyer.post('/rest/v1/trade', {
      offer_hash: offer.hash,
      amount_fiat: '150',
      amount_btc: '0.0015',
      gold_terms: 0,
      original_data: offer.originalData,
    });
    expect(start.status, await start.clone().text()).toBe(201);
    // 150,000 satoshi and the 1,500 fee went into escrow: 48,500 left, less than the 50,500 needed.
    const copy = await t.db.sql.get<{ btc: number }>('SELECT wallet_btc AS btc FROM users WHERE id = ?', [
      vendorUser.id,
    ]);
    expect(copy?.btc).toBe(48_500);
    await expect.poll(() => listed(), { timeout: 5_000 }).toEqual([]);
    expect(await verifyLedger(t.db)).toEqual([]);
  });
});
