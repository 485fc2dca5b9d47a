import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { bankFixtures, IBANS } from '../support/bank-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';

// A saved account shared into a bank-transfer trade (issue 19; docs/bank-accounts.md): only the
// seller shares, the trade keeps its own copy, both parties and moderators read it, and the saved
// account cannot be deleted while the trade runs.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
let b: ReturnType<typeof bankFixtures>;
let vendor: Browser;
let buyer: Browser;
let offer: Awaited<ReturnType<typeof f.createOffer>>;

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  b = bankFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
  // The demo vendor sells for USD by bank transfer (fixedPriceOfferBody).
  offer = await f.createOffer(vendor);
});
afterEach(() => t?.close());

async function savedAccount(who: Browser, body: unknown): Promise<{ id: string }> {
  const res = await who.post('/rest/v1/bankaccounts', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}
const tradeOf = async (who: Browser, hash: string) => {
  const res = await who.get(`/rest/v1/trade/${hash}`);
  expect(res.status).toBe(200);
  return (await res.json()).data as TradeData & { bankAccount: Record<string, unknown> | null };
};
const share = (who: Browser, hash: string, id: string) =>
  who.post(`/rest/v1/trade/${hash}/bank-account`, { bank_account_id: id });

describe('POST /rest/v1/trade/{id}/bank-account', () => {
  it('shows the seller’s account to both parties and a moderator, as a copy', async () => {
    const account = await savedAccount(vendor, await b.usBody());
    const trade = await f.startTrade(buyer, offer);
    expect((await tradeOf(buyer, trade.hash)).bankAccount).toBeNull();

    const res = await share(vendor, trade.hash, account.id);
    expect(res.status, await res.clone().text()).toBe(200);
    const expected = {
      kind: 'aba',
      holderName: 'John Doe',
      bankName: 'JPMorgan Chase Bank',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      iban: null,
      swiftCode: 'CHASUS33',
      country: { iso: 'US', name: 'United States' },
      currency: 'USD',
    };
    expect((await res.json()).data).toMatchObject(expected);
    expect((await tradeOf(buyer, trade.hash)).bankAccount).toMatchObject(expected);
    expect((await tradeOf(vendor, trade.hash)).bankAccount).toMatchObject(expected);
    const moderator = await f.signedIn('moderator@example.com');
    expect((await tradeOf(moderator, trade.hash)).bankAccount).toMatchObject(expected);

    // Changing the saved account later leaves the trade's copy as it was.
    const changed = await vendor.send(`/rest/v1/bankaccounts/${account.id}`, {
      method: 'PUT',
      json: await b.usBody({ holder_name: 'Jane Doe' }),
    });
    expect(changed.status).toBe(200);
    expect((await tradeOf(buyer, trade.hash)).bankAccount).toMatchObject({ holderName: 'John Doe' });
  });

  it('replaces the shared account when the seller shares another', async () => {
    const first = await savedAccount(vendor, await b.usBody());
    const second = await savedAccount(vendor, await b.usBody({ account_number: '99887766' }));
    const trade = await f.startTrade(buyer, offer);
    expect((await share(vendor, trade.hash, first.id)).status).toBe(200);
    expect((await share(vendor, trade.hash, second.id)).status).toBe(200);
    expect((await tradeOf(buyer, trade.hash)).bankAccount).toMatchObject({ accountNumber: '99887766' });
  });

  it('is the seller’s alone, with their own account, in a running bank-transfer trade', async () => {
    const account = await savedAccount(vendor, await b.usBody());
    const buyersAccount = await savedAccount(buyer, await b.usBody());
    const trade = await f.startTrade(buyer, offer);
    const byBuyer = await share(buyer, trade.hash, buyersAccount.id);
    expect(byBuyer.status).toBe(403);
    expect((await errorOf(byBuyer)).code).toBe('FORBIDDEN');
    // Someone else's account is as unknown as one that never was.
    expect((await share(vendor, trade.hash, buyersAccount.id)).status).toBe(404);
    const stranger = await f.signedIn('moderator@example.com');
    expect((await share(stranger, trade.hash, account.id)).status).toBe(404);
    expect((await share(vendor, 'NoSuchTrade1', account.id)).status).toBe(404);

    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`)).status).toBe(200);
    const ended = await share(vendor, trade.hash, account.id);
    expect(ended.status).toBe(409);
    expect((await errorOf(ended)).code).toBe('TRADE_STATE_CHANGED');
  });

  it('refuses a trade that is not paid by bank transfer', async () => {
    const account = await savedAccount(vendor, await b.usBody());
    const paypal = await f.createOffer(vendor, { payment_method: 'paypal' });
    const trade = await f.startTrade(buyer, paypal);
    const res = await share(vendor, trade.hash, account.id);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('FORBIDDEN');
  });
});

describe('DELETE /rest/v1/bankaccounts/{id} of a shared account', () => {
  it('is refused while the trade runs and allowed once it ended; the trade keeps its copy', async () => {
    const account = await savedAccount(vendor, await b.ibanBody(IBANS.DE, {}, 'EUR'));
    const trade = await f.startTrade(buyer, offer);
    expect((await share(vendor, trade.hash, account.id)).status).toBe(200);

    const refused = await vendor.send(`/rest/v1/bankaccounts/${account.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'BANK_ACCOUNT_IN_TRADE', meta: { tradeHash: trade.hash } });

    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/cancel`)).status).toBe(200);
    const deleted = await vendor.send(`/rest/v1/bankaccounts/${account.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await tradeOf(buyer, trade.hash)).bankAccount).toMatchObject({
      kind: 'iban',
      iban: 'DE89 3704 0044 0532 0130 00',
      bankName: 'Commerzbank',
    });
  });
});
