import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import type { browserSession } from '../support/browser-session.ts';
import { fundPeople } from '../support/offer-funds.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// What an offer asks once a trade starts, over the API (issue 22): gold terms, the skipped
// buyers' warning and the proofs the partner uploads go in with POST, come back in the offer's
// view, change with PUT and steer the start step (spec section 4); wrong values come back as
// field errors and save nothing. The demo market has some offers of each.

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;

const RECEIPT = { kind: 'receipt', stage: 'before_paid', optional: false } as const;
const PHOTO_ID = { kind: 'photo_id', stage: 'before_reveal', optional: true } as const;

/** A valid offer body: the vendor sells bitcoin for US dollars by bank transfer. */
const offerBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'sell',
  crypto_currency_code: 'BTC',
  currency: 'USD',
  payment_method: 'bank-transfer',
  price_type: 'margin',
  margin: '2.5',
  fiat_min: '50',
  fiat_max: '1000',
  payment_window: 60,
  terms: 'Pay from an account in your own name, with the reference I give you.',
  ...overrides,
});

interface View {
  hash: string;
  isGold: boolean;
  isSkipWarnings: boolean;
  tradeRequirements: { kind: string; stage: string; optional: boolean }[];
}

const offerCount = async () => (await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM offers'))?.n;

async function vendorSignedIn(): Promise<Browser> {
  const user = await createUser(t, { vendor: true });
  // Sell offers are shown only while their owner can fund them (decision 121).
  await fundPeople({ db: t.db, ledger: t.services.ledger }, 'id = ?', [user.id]);
  return user.signIn();
}

async function create(vendor: Browser, overrides: Record<string, unknown>): Promise<View> {
  const res = await vendor.post('/rest/v1/offers', offerBody(overrides));
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()).data as View;
}

/** The offer as `who` reads it, and the start step the offer page would take on submit. */
async function read(who: Browser, hash: string) {
  const res = await who.get(`/rest/v1/offers/${hash}`);
  expect(res.status).toBe(200);
  const body = await res.json();
  return { view: body.data as View, step: (body.meta as { step: string }).step };
}

/** The fields of a refused write, with their messages. */
async function refusal(res: Response) {
  expect(res.status).toBe(400);
  const error = (await res.json()).errors[0] as { code: string; details: { field: string; message: string }[] };
  expect(error.code).toBe('ERROR_INPUT_VALIDATION');
  return error.details;
}

beforeEach(async () => {
  t = await createTestApp();
  await t.db.sql.run('UPDATE users SET last_seen_at = ?', [TEST_NOW]);
  await t.services.offers.invalidateSearches(systemContext('test'));
});

describe('gold terms, skipped warnings and proofs', () => {
  it('go in with the offer, come back in its view, change with PUT and steer the start step', async () => {
    const vendor = await vendorSignedIn();
    const buyer = await (await createUser(t)).signIn();
    const created = await create(vendor, {
      is_gold: true,
      is_skip_warnings: true,
      trade_requirements: [RECEIPT, PHOTO_ID],
    });
    expect(created).toMatchObject({ isGold: true, isSkipWarnings: true, tradeRequirements: [RECEIPT, PHOTO_ID] });
    // What the editor loads for an edit, and what a buyer reads.
    expect((await read(vendor, created.hash)).view).toMatchObject({
      isGold: true,
      isSkipWarnings: true,
      tradeRequirements: [RECEIPT, PHOTO_ID],
    });
    const asBuyer = await read(buyer, created.hash);
    expect(asBuyer.view.tradeRequirements).toEqual([RECEIPT, PHOTO_ID]);
    // Gold first (spec section 4, step 2): the payment-terms warning.
    expect(asBuyer.step).toBe('payment_terms_warning');

    // Gold off, the warning still skipped, one proof made optional.
    const put = await vendor.send(`/rest/v1/offers/${created.hash}`, {
      method: 'PUT',
      json: offerBody({
        is_gold: false,
        is_skip_warnings: true,
        trade_requirements: [{ ...RECEIPT, optional: true }],
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await put.json()).data).toMatchObject({
      isGold: false,
      isSkipWarnings: true,
      tradeRequirements: [{ ...RECEIPT, optional: true }],
    });
    expect((await read(buyer, created.hash)).step).toBe('start');

    // Left out, each goes back to its default: the buyers' warning shows again, no proofs.
    const cleared = await vendor.send(`/rest/v1/offers/${created.hash}`, { method: 'PUT', json: offerBody() });
    expect(cleared.status).toBe(200);
    const after = await read(buyer, created.hash);
    expect(after.view).toMatchObject({ isGold: false, isSkipWarnings: false, tradeRequirements: [] });
    expect(after.step).toBe('sell_offer_warning');
  });

  it('keep gold terms on a buy offer, whose sellers accept them too', async () => {
    const vendor = await vendorSignedIn();
    const seller = await (await createUser(t)).signIn();
    const offer = await create(vendor, { type: 'buy', margin: '-1', is_gold: true, trade_requirements: [RECEIPT] });
    const { view, step } = await read(seller, offer.hash);
    expect(view).toMatchObject({ isGold: true, isSkipWarnings: false, tradeRequirements: [RECEIPT] });
    expect(step).toBe('payment_terms_warning');
  });

  it.each([
    [{ is_gold: true, terms: '' }, 'is_gold', 'Gold terms need terms to accept: write your terms first.'],
    [{ is_gold: true, terms: '   ' }, 'is_gold', 'Gold terms need terms to accept: write your terms first.'],
    [{ is_gold: 'yes' }, 'is_gold', 'must be true or false'],
    [
      { type: 'buy', margin: '-1', is_skip_warnings: true },
      'is_skip_warnings',
      'Only sell offers show buyers a warning to skip.',
    ],
    [{ is_skip_warnings: 1 }, 'is_skip_warnings', 'must be true or false'],
    [
      {
        trade_requirements: [
          RECEIPT,
          PHOTO_ID,
          { ...RECEIPT, kind: 'selfie' },
          { ...RECEIPT, kind: 'bank_statement' },
          { ...RECEIPT, kind: 'proof_of_address' },
        ],
      },
      'trade_requirements',
      'At most 4 requirements.',
    ],
    [
      { trade_requirements: [RECEIPT, { ...RECEIPT, optional: true }] },
      'trade_requirements',
      'Ask for each proof once per step.',
    ],
    [{ trade_requirements: [{ ...RECEIPT, kind: 'passport' }] }, 'trade_requirements.0.kind', undefined],
    [
      { trade_requirements: [RECEIPT, { ...RECEIPT, stage: 'after_release' }] },
      'trade_requirements.1.stage',
      undefined,
    ],
    [{ trade_requirements: 'receipt' }, 'trade_requirements', 'must be a list of requirements'],
  ])('refuse %o with a field error on %s, creating nothing and changing nothing', async (overrides, field, message) => {
    const vendor = await vendorSignedIn();
    const before = await offerCount();
    const details = await refusal(await vendor.post('/rest/v1/offers', offerBody(overrides)));
    expect(details.map((d) => d.field)).toContain(field);
    if (message) expect(details.find((d) => d.field === field)?.message).toBe(message);
    expect(await offerCount()).toBe(before);

    // The same on an update: the offer stays as it was.
    const offer = await create(vendor, { trade_requirements: [RECEIPT] });
    const put = await vendor.send(`/rest/v1/offers/${offer.hash}`, { method: 'PUT', json: offerBody(overrides) });
    expect((await refusal(put)).map((d) => d.field)).toContain(field);
    expect((await read(vendor, offer.hash)).view).toMatchObject({
      isGold: false,
      isSkipWarnings: false,
      tradeRequirements: [RECEIPT],
    });
  });

  it('say in the reader’s language what is wrong', async () => {
    const vendor = await vendorSignedIn();
    const res = await vendor.post('/rest/v1/offers?locale=de', offerBody({ is_gold: true, terms: '' }));
    const details = await refusal(res);
    expect(details.find((d) => d.field === 'is_gold')?.message).toBe(
      'Gold-Bedingungen brauchen Bedingungen zum Akzeptieren: Schreib zuerst deine Bedingungen.',
    );
  });
});

describe('the demo market', () => {
  it('has gold offers, sell offers that skip the warning and offers asking for proofs, as seeded', async () => {
    const rows = await t.db.sql.all<{
      hash: string;
      type: string;
      isGold: number | boolean;
      isSkipWarnings: number | boolean;
      requirements: string;
      status: string;
    }>(
      `SELECT hash, type, is_gold AS "isGold", is_skip_warnings AS "isSkipWarnings",
              trade_requirements AS requirements, status
         FROM offers ORDER BY id`,
    );
    const gold = rows.filter((r) => Boolean(r.isGold));
    const skipping = rows.filter((r) => Boolean(r.isSkipWarnings));
    const proofs = rows.filter((r) => r.requirements !== '[]');
    for (const flagged of [gold, skipping, proofs]) {
      expect(flagged.length).toBeGreaterThanOrEqual(3);
      expect(flagged.length).toBeLessThan(rows.length / 10);
      expect(flagged.some((r) => r.status === 'active' && r.type === 'sell')).toBe(true);
    }
    // Only sell offers show buyers the warning there is to skip.
    expect(skipping.every((r) => r.type === 'sell')).toBe(true);
    for (const row of proofs) {
      const asked = JSON.parse(row.requirements) as { kind: string; stage: string }[];
      expect(asked.length).toBeGreaterThan(0);
      expect(new Set(asked.map((r) => `${r.stage}:${r.kind}`)).size).toBe(asked.length);
    }
    // The first offer stays plain: the benchmarks copy it as their template.
    expect(rows[0]).toMatchObject({ requirements: '[]' });
    expect(Boolean(rows[0]?.isGold) || Boolean(rows[0]?.isSkipWarnings)).toBe(false);
  });
});
