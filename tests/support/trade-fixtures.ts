import { expect } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { type browserSession, signedInSession } from './browser-session.ts';
import { TEST_NOW, type TestApp } from './test-app.ts';

// What trade tests share: signed-in parties, money from the chain, an offer and a started trade.
// The test price feed stands at 90,000 USD per BTC.

export type Browser = ReturnType<typeof browserSession>;

/** A vendor's sell offer at a fixed 100,000 USD per BTC, so amounts are round. */
export function fixedPriceOfferBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'sell',
    crypto_currency_code: 'BTC',
    currency: 'USD',
    payment_method: 'bank-transfer',
    price_type: 'fixed',
    fixed_price: '100000',
    fiat_min: '50',
    fiat_max: '5000',
    payment_window: 90,
    terms: 'Pay from an account in your own name.',
    trade_instructions: 'IBAN DE89 3704 0044 0532 0130 00, reference: your username.',
    ...overrides,
  };
}

/** What the start widget posts for `fiat` at the offer's price (POST /rest/v1/trade). */
export const tradeStartBody = (
  offer: { hash: string; originalData: string; fiatPricePerCrypto: number },
  fiat: string,
  overrides: Record<string, unknown> = {},
) => ({
  offer_hash: offer.hash,
  amount_fiat: fiat,
  amount_btc: (Number(fiat) / offer.fiatPricePerCrypto).toFixed(8),
  gold_terms: 0,
  original_data: offer.originalData,
  ...overrides,
});

export function tradeFixtures(t: TestApp) {
  /** A statement on the test's database, for states no request can reach. */
  const sql = (statement: string, ...params: unknown[]) => t.db.sql.run(statement, params);
  const userId = async (email: string) => {
    const row = await t.db.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [email]);
    if (!row) throw new Error(`no user ${email}`);
    return row.id;
  };

  const signedIn = (email: string, ip?: string): Promise<Browser> => signedInSession(t, email, ip);

  /** Money arriving from the chain, as a confirmed deposit posts it. */
  async function fund(email: string, currency: 'BTC' | 'USDT', amount: number) {
    const id = await userId(email);
    await t.services.ledger.post(systemContext('test'), {
      kind: 'deposit',
      idempotencyKey: `fund:${id}:${currency}:${amount}:${Math.random()}`,
      legs: [
        { account: systemAccount('chain_in', currency), amount: -amount },
        { account: walletOf(id, currency), amount },
      ],
    });
  }

  const balance = async (email: string, currency: 'BTC' | 'USDT' = 'BTC') =>
    (await t.services.ledger.balances(systemContext('test'), { userId: await userId(email) }))[currency];

  /** A fixed-price offer (100,000 USD per BTC) so amounts are round; the vendor sells by default. */
  async function createOffer(vendor: Browser, overrides: Record<string, unknown> = {}) {
    const res = await vendor.post('/rest/v1/offers', fixedPriceOfferBody({ payment_window: 30, ...overrides }));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).data as { hash: string; originalData: string; fiatPricePerCrypto: number };
  }

  /** What the start widget posts for `fiat` at the offer's price. */
  const startBody = tradeStartBody;

  async function startTrade(
    b: Browser,
    offer: { hash: string; originalData: string; fiatPricePerCrypto: number },
    fiat = '100',
  ) {
    const res = await b.post('/rest/v1/trade', startBody(offer, fiat));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()).data as TradeData;
  }

  /** A trade `buyer` starts on `seller`'s sell offer for `fiat`, pays and `seller` releases. */
  async function completedTrade(
    buyer: Browser,
    seller: Browser,
    offer: { hash: string; originalData: string; fiatPricePerCrypto: number },
    fiat: string,
  ) {
    const trade = await startTrade(buyer, offer, fiat);
    await buyer.post(`/rest/v1/trade/${trade.hash}/paid`);
    const res = await seller.post(`/rest/v1/trade/${trade.hash}/release`, {});
    expect(res.status, await res.clone().text()).toBe(200);
    return trade;
  }

  /** Every step of the verification ladder done (level 4, the highest trading limit). */
  async function verifyFully(email: string) {
    const id = await userId(email);
    const at = t.clock.now;
    await sql(
      `INSERT INTO phones (user_id, number, verified_at, codes_sent_at) VALUES (?, ?, ?, '[]')
       ON CONFLICT(user_id) DO UPDATE SET verified_at = excluded.verified_at`,
      id,
      `+4915100${String(id).padStart(5, '0')}`,
      at,
    );
    await sql('UPDATE users SET id_verified_at = ?, address_verified_at = ? WHERE id = ?', at, at, id);
  }

  /** Everyone online now, so the start gate's presence rule lets trades start. */
  const everyoneOnline = () => sql('UPDATE users SET last_seen_at = ?', t.clock.now);

  /**
   * A quiet market for trade tests: the demo offers paused, everyone online, the vendor with
   * `vendorBtc` satoshi, both demo parties signed in.
   */
  async function openMarket(vendorBtc: number) {
    await sql(`UPDATE offers SET status = 'paused'`);
    await everyoneOnline();
    await fund('vendor@example.com', 'BTC', vendorBtc);
    return { vendor: await signedIn('vendor@example.com'), buyer: await signedIn('buyer@example.com') };
  }

  return {
    sql,
    userId,
    signedIn,
    fund,
    balance,
    createOffer,
    startBody,
    startTrade,
    completedTrade,
    everyoneOnline,
    verifyFully,
    openMarket,
  };
}

export interface TradeData {
  id: string;
  hash: string;
  chatUrl: string;
  status: string;
  role: string;
  version: number;
  cryptoAmount: string;
  btcAmount: { satoshi: number; btc: string } | null;
  fee: { amount: string; percentage: number };
  fiatAmount: number;
  paymentDetails: string | null;
  expiresAt: number;
  dispute: { available: boolean; availableAt: number | null };
  actions: Record<string, boolean>;
  flow: { step: string; state: Record<string, { id: number; status: string; optional: boolean }[]> };
  [key: string]: unknown;
}

export { TEST_NOW };
