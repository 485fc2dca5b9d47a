import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { proofCommands } from '../../server/admin/proof-commands.ts';
import { systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createProofRepository } from '../../server/services/proof/repository.ts';
import { type LiabilityProof, verifyLiabilityProof } from '../../src/lib/shared/liabilities-proof.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../src/lib/shared/money.ts';
import type { MyProofView, ProofPublicationView } from '../../src/lib/shared/views/proof.ts';
import { errorOf } from '../support/api-errors.ts';
import { signedInAs } from '../support/signed-in.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// Proof of liabilities (issue 24; docs/decisions/146-proof-of-liabilities.md): what a publication
// sums is what the ledger owes people (ledger:verify's line), every person's proof checks against
// the published root, the public list shows roots and totals only, and a ledger that does not
// balance is never published.

let t: TestApp;
let f: ReturnType<typeof tradeFixtures>;
const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
});
afterEach(() => t?.close());

const publish = () => proofCommands(t.db, () => t.clock.now).publish();

/** The seeded demo market, then a released trade (fees to the platform) and one open (an escrow). */
async function activity() {
  const { vendor, buyer } = await f.openMarket(100_000_000);
  await f.verifyFully(BUYER);
  await f.verifyFully(VENDOR);
  const offer = await f.createOffer(vendor);
  await f.completedTrade(buyer, vendor, offer, '5000');
  await f.startTrade(buyer, offer, '1000');
  await f.fund(BUYER, 'USDT', 250_000_000);
  return { vendor, buyer };
}

/** What the ledger owes people per currency, from its accounts. */
async function owedByLedger(): Promise<Record<'BTC' | 'USDT', number>> {
  const rows = await t.db.sql.all<{ currency: 'BTC' | 'USDT'; total: number }>(
    `SELECT currency, sum(balance) AS total FROM ledger_accounts
     WHERE kind IN ('user_wallet', 'trade_escrow', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance')
     GROUP BY currency`,
  );
  return { BTC: 0, USDT: 0, ...Object.fromEntries(rows.map((row) => [row.currency, Number(row.total)])) };
}

const listed = async (query = '') => {
  const res = await t.send(`/rest/v1/proof${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).data as ProofPublicationView[];
};

describe('before anything is published', () => {
  it('lists no roots and answers a person 404 NOT_FOUND with a clear message; a visitor 401', async () => {
    expect(await listed()).toEqual([]);
    const person = await signedInAs(t, BUYER);
    const mine = await person.get('/rest/v1/proof/me');
    expect(mine.status).toBe(404);
    expect(await errorOf(mine)).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/published yet/) });
    const german = await person.get('/rest/v1/proof/me?locale=de');
    expect((await errorOf(german)).message).toMatch(/Nachweis der Verbindlichkeiten/);
    expect((await t.send('/rest/v1/proof/me')).status).toBe(401);
  });
});

describe('a publication', () => {
  it('totals what the ledger owes people, as ledger:verify says, and the platform’s accounts mirror it', async () => {
    await activity();
    expect(await verifyLedger(t.db)).toEqual([]);
    const printed = await publish();
    expect(printed).toMatch(/^Proof of liabilities pol_\w{16} published at 2026-11-22T12:00:00.000Z:/);
    const [publication] = await listed();
    const owed = await owedByLedger();
    expect(owed.BTC).toBeGreaterThan(0);
    const verified = await ledgerCommands(t.db).verify();
    for (const currency of ['BTC', 'USDT'] as const) {
      const root = publication?.roots.find((r) => r.currency === currency);
      expect(root?.totalMinorUnits, currency).toBe(owed[currency]);
      expect(root?.total).toBe(fromMinorUnits(owed[currency], CRYPTO_DECIMALS[currency]));
      expect(verified).toContain(`${root?.total} ${currency}`);
      expect(printed).toContain(
        `${currency}: ${root?.total} owed to ${root?.leafCount} people, root ${root?.rootHash}`,
      );
      // Double entry: the platform's own accounts (fees, the chain, the desk) sum to the opposite.
      const platform = await t.db.sql.get<{ total: number }>(
        `SELECT coalesce(sum(balance), 0) AS total FROM ledger_accounts WHERE currency = ?
         AND kind IN ('fee_income', 'conversion_desk', 'chain_in', 'chain_out')`,
        [currency],
      );
      expect(Number(platform?.total) + owed[currency]).toBe(0);
    }
    expect(verified).toMatch(/\nOwed to people: \d+\.\d{8} BTC, \d+\.\d{6} USDT\.$/);
  });

  it('hands each person proofs that verify: the seller’s escrow counts as theirs, one proof per currency held', async () => {
    await activity();
    await publish();
    const vendor = await signedInAs(t, VENDOR);
    const buyer = await signedInAs(t, BUYER);
    const [publication] = await listed();
    const vendorView = (await (await vendor.get('/rest/v1/proof/me')).json()).data as MyProofView;
    expect(vendorView.publication).toEqual(publication);
    const vendorBtc = vendorView.proofs.find((p) => p.currency === 'BTC') as LiabilityProof;
    // Wallet plus the open trade's escrow, which the vendor locked as seller.
    const owned = await t.db.sql.get<{ total: number }>(
      `SELECT sum(balance) AS total FROM ledger_accounts WHERE owner_id = ? AND currency = 'BTC'`,
      [vendor.id],
    );
    const escrow = await t.db.sql.get<{ total: number }>(
      `SELECT sum(balance) AS total FROM ledger_accounts WHERE owner_id = ? AND kind = 'trade_escrow'`,
      [vendor.id],
    );
    expect(Number(escrow?.total)).toBeGreaterThan(0);
    expect(vendorBtc.leaf.balance).toBe(Number(owned?.total));
    expect(await verifyLiabilityProof(vendorBtc, vendor.publicId)).toMatchObject({ ok: true });
    expect(vendorBtc.root.hash).toBe(publication?.roots.find((r) => r.currency === 'BTC')?.rootHash);

    const buyerView = (await (await buyer.get('/rest/v1/proof/me')).json()).data as MyProofView;
    expect(buyerView.proofs.map((p) => p.currency)).toEqual(['BTC', 'USDT']);
    for (const proof of buyerView.proofs) {
      expect(proof.leaf.userId).toBe(buyer.publicId);
      expect(await verifyLiabilityProof(proof, buyer.publicId), proof.currency).toMatchObject({ ok: true });
    }
    expect(buyerView.proofs.find((p) => p.currency === 'USDT')?.leaf.balance).toBe(250_000_000);
    // The buyer's proof names neither the vendor nor the vendor's nonce.
    const text = JSON.stringify(buyerView);
    expect(text).not.toContain(vendor.publicId);
    expect(text).not.toContain(vendorBtc.leaf.nonce);
  });

  it('shows the public only roots and totals: no person, no nonce; shared caches may keep it a minute', async () => {
    await activity();
    await publish();
    const res = await t.send('/rest/v1/proof');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const text = await res.text();
    const ids = await t.db.sql.all<{ publicId: string }>('SELECT public_id AS publicId FROM users');
    for (const { publicId } of ids) expect(text).not.toContain(publicId);
    const nonces = await t.db.sql.all<{ nonce: string }>('SELECT nonce FROM proof_leaves');
    expect(nonces.length).toBeGreaterThan(2);
    for (const { nonce } of nonces) expect(text).not.toContain(nonce);
  });

  it('keeps the history newest first, with pages; a person’s proof is always in the latest', async () => {
    const { buyer } = await activity();
    await publish();
    t.clock.now += 86_400_000;
    await f.fund(BUYER, 'BTC', 7_000);
    await publish();
    const [second, first] = await listed();
    expect(second?.publishedAt).toBe((first?.publishedAt ?? 0) + 86_400_000);
    expect(second?.roots.find((r) => r.currency === 'BTC')?.totalMinorUnits).toBe(
      (first?.roots.find((r) => r.currency === 'BTC')?.totalMinorUnits ?? 0) + 7_000,
    );
    expect((await listed('?limit=1')).map((p) => p.id)).toEqual([second?.id]);
    expect((await listed(`?limit=1&before=${second?.id}`)).map((p) => p.id)).toEqual([first?.id]);
    const view = (await (await buyer.get('/rest/v1/proof/me')).json()).data as MyProofView;
    expect(view.publication.id).toBe(second?.id);
    for (const proof of view.proofs) expect((await verifyLiabilityProof(proof)).ok).toBe(true);
  });

  it('refuses a bad page: 400 naming limit or before; 404 for a publication that does not exist', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?before=ltx_0000000000000000', 'before'],
    ] as const) {
      const res = await t.send(`/rest/v1/proof${query}`);
      expect(res.status, query).toBe(400);
      expect(await errorOf(res), query).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    }
    const unknown = await t.send('/rest/v1/proof?before=pol_0000000000000000');
    expect(unknown.status).toBe(404);
  });
});

describe('the API reference', () => {
  it('documents both routes under their tag: the list open to everyone, proof/me for a session or a key', async () => {
    const document = (await (await t.send('/rest/v1/openapi.json')).json()) as {
      paths: Record<string, { get: { tags: string[]; security: unknown[] } }>;
    };
    const list = document.paths['/rest/v1/proof']?.get;
    const mine = document.paths['/rest/v1/proof/me']?.get;
    expect(list?.tags).toEqual(['Proof of liabilities']);
    expect(list?.security).toEqual([]);
    expect(mine?.tags).toEqual(['Proof of liabilities']);
    expect(mine?.security.length).toBeGreaterThan(0);
  });
});

describe('what is never published', () => {
  it('a ledger that does not balance: the command fails, nothing is stored', async () => {
    await activity();
    // A balance edited by hand, as a bad manual fix would: a person owed one satoshi nobody paid in.
    await f.sql(
      "UPDATE ledger_accounts SET balance = balance + 1 WHERE kind = 'user_wallet' AND currency = 'BTC' AND owner_id = ?",
      await f.userId(VENDOR),
    );
    await expect(publish()).rejects.toThrow(/accounts sum to 1, not 0/);
    expect(await listed()).toEqual([]);
    expect(await t.db.sql.get('SELECT id FROM proof_leaves')).toBeUndefined();
  });
});

describe('a stored leaf changed after publication', () => {
  it('is never handed out as a proof: the rebuilt root differs, the request fails and says nothing', async () => {
    await activity();
    await publish();
    await f.sql('UPDATE proof_leaves SET balance = balance + 1 WHERE user_id = ?', await f.userId(VENDOR));
    const buyer = await signedInAs(t, BUYER);
    const res = await buyer.get('/rest/v1/proof/me');
    expect(res.status).toBe(500);
    expect((await errorOf(res)).code).toBe('INTERNAL_ERROR');
    expect(t.logged.join('\n')).toMatch(/no longer gives its root/);
  });
});

describe('the schedule and the stored leaves', () => {
  it('publishes when none is due yet, not again within the interval, again once it passed', async () => {
    await activity();
    const day = 86_400_000;
    let stop = t.services.proof.startSchedule(day, 3_600_000);
    await stop();
    expect(await listed()).toHaveLength(1);
    // A restart (or a new leader) within the day publishes nothing.
    t.clock.now += day - 1;
    stop = t.services.proof.startSchedule(day, 3_600_000);
    await stop();
    expect(await listed()).toHaveLength(1);
    t.clock.now += 1;
    stop = t.services.proof.startSchedule(day, 3_600_000);
    await stop();
    const [latest] = await listed();
    expect(await listed()).toHaveLength(2);
    expect(latest?.publishedAt).toBe(t.clock.now);
  });

  it('drops older publications’ leaves, keeping their roots; the latest still proves', async () => {
    await activity();
    await publish();
    t.clock.now += 1000;
    await publish();
    const repo = createProofRepository(t.db);
    await repo.pruneLeaves(1);
    const kept = await t.db.sql.all<{ publicationId: number }>(
      'SELECT DISTINCT publication_id AS publicationId FROM proof_leaves',
    );
    expect(kept).toHaveLength(1);
    expect(await listed()).toHaveLength(2);
    const view = await t.services.proof.mine({
      ...systemContext('test'),
      ...(await personOf(BUYER)),
    });
    expect(view.proofs.length).toBe(2);
  });
});

async function personOf(email: string) {
  const user = await t.db.sql.get<{ id: number; publicId: string }>(
    'SELECT id, public_id AS publicId FROM users WHERE email = ?',
    [email],
  );
  return {
    actor: { type: 'user' as const, userId: user?.id ?? 0 },
    auth: { user: { id: user?.id ?? 0, publicId: user?.publicId ?? '' } } as never,
  };
}
