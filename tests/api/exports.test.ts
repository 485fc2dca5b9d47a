import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { createExportsService, EXPORT_KEEP_MS } from '../../server/services/exports/exports.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../support/test-app.ts';
import { type Browser, tradeFixtures } from '../support/trade-fixtures.ts';
import { createUser } from '../support/users.ts';

// A person's full export (issue 24; docs/decisions/158-data-exports.md): request, list, read and
// download, built in the background in chunks. The demo vendor sells to the demo buyer today
// (TEST_NOW's day), chats, is rated, gets a deposit from the chain and sends coins out; the export
// of today must hold all of it, with the ledger's numbers.

const job = systemContext('test');
const TODAY = new Date(TEST_NOW).toISOString().slice(0, 10);
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const FORMULA = '=HYPERLINK("http://evil.example","click")';

let t: TestApp;
let vendor: Browser;
let buyer: Browser;
let f: ReturnType<typeof tradeFixtures>;

beforeEach(async () => {
  t = await createTestApp();
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
});
afterEach(async () => {
  if (!t) return;
  expect(await verifyLedger(t.db)).toEqual([]);
  await t.close();
});

/** RFC 4180 as csv.ts writes it: quoted fields, doubled quotes, CRLF; the BOM dropped. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i] as string;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  const [head = [], ...rest] = rows;
  return rest.map((cells) => Object.fromEntries(head.map((name, i) => [name, cells[i] ?? ''])));
}

const dataOf = async <T = Record<string, unknown>>(res: Response, status = 200): Promise<T> => {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()).data as T;
};

interface View {
  id: string;
  status: string;
  progress: { done: number; total: number };
  size: number | null;
  expiresAt: string | null;
  downloadUrl: string | null;
  fileName: string;
}

const request = (b: Browser, body: Record<string, unknown>) => b.post('/rest/v1/exports', body);

/** Today's trade, chat, rating, deposit and sendout of the demo vendor; answers what to expect. */
async function vendorsDay() {
  const offer = await f.createOffer(vendor);
  const trade = await f.completedTrade(buyer, vendor, offer, '100');
  await dataOf(await vendor.post(`/rest/v1/trade/${trade.hash}/messages`, { text: FORMULA }), 201);
  await dataOf(await buyer.post(`/rest/v1/feedback/${trade.hash}/give`, { rating: 'positive', message: '+1 fast' }));
  const vendorId = await f.userId('vendor@example.com');
  await t.services.chain.simulateDeposit(job, { userId: vendorId, currency: 'BTC', amount: 70_000 });
  await t.services.chain.mine(job, { ticks: 2 });
  const sent = await vendor.post('/rest/v1/wallet/send', {
    currency: 'BTC',
    address: BTC_ADDRESS,
    amount: '0.001',
    request_id: 'export-test-1',
  });
  expect(sent.status, await sent.clone().text()).toBe(201);
  return { trade, vendorId };
}

/** The person's postings dated today, summed per currency, straight from the ledger's tables. */
async function ledgerSums(userId: number, from: number, to: number) {
  const rows = await t.db.sql.all<{ currency: string; total: number; n: number }>(
    `SELECT p.currency AS currency, sum(p.amount) AS total, count(*) AS n FROM ledger_postings p
      JOIN ledger_accounts a ON a.id = p.account_id JOIN ledger_transactions x ON x.id = p.transaction_id
      WHERE a.owner_id = ? AND a.kind IN ('user_wallet', 'trade_escrow', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance')
        AND x.created_at >= ? AND x.created_at < ? GROUP BY p.currency`,
    [userId, from, to],
  );
  return Object.fromEntries(rows.map((r) => [r.currency, { total: Number(r.total), n: Number(r.n) }]));
}

/** Sum of decimal strings with 8 decimals, exactly, in satoshi. */
const satoshi = (amounts: string[]) =>
  amounts.reduce((sum, amount) => {
    const negative = amount.startsWith('-');
    const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
    const value = Number(whole) * 100_000_000 + Number(fraction.padEnd(8, '0'));
    return sum + (negative ? -value : value);
  }, 0);

async function downloadZip(b: Browser, view: View) {
  const res = await b.get(view.downloadUrl as string);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${view.fileName}"`);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(bytes.length).toBe(view.size);
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

describe('a person’s export', () => {
  it('holds their trades, ledger, fees, chat, feedback, deposits and sendouts, matching the ledger (CSV)', async () => {
    const { trade, vendorId } = await vendorsDay();
    const queued = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    expect(queued).toMatchObject({ status: 'queued', progress: { done: 0, total: 0 }, downloadUrl: null });
    await t.services.exports.runUntilIdle();
    const view = await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`));
    expect(view.status).toBe('ready');
    expect(view.progress.done).toBe(view.progress.total);
    expect(view.expiresAt).toBe(new Date(TEST_NOW + EXPORT_KEEP_MS).toISOString());
    const files = await downloadZip(vendor, view);
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'chat.csv',
        'deposits.csv',
        'feedback.csv',
        'fees.csv',
        'ledger.csv',
        'sendouts.csv',
        'trades.csv',
      ].sort(),
    );
    expect(files['README.txt']).toContain('fees.csv');

    const trades = parseCsv(files['trades.csv'] as string);
    expect(trades).toEqual([
      expect.objectContaining({
        trade: trade.hash,
        role: 'seller',
        status: 'released',
        crypto_currency: 'BTC',
        fiat_currency: 'USD',
        fiat_amount: '100.00',
        price_per_coin: '100000.00',
        crypto_amount: '0.00100000',
      }),
    ]);
    // The ledger file is the ledger: every posting of today, and the same sums.
    const ledger = parseCsv(files['ledger.csv'] as string);
    const sums = await ledgerSums(vendorId, Date.parse(`${TODAY}T00:00:00Z`), TEST_NOW + 1);
    expect(ledger).toHaveLength(sums.BTC?.n as number);
    expect(satoshi(ledger.map((row) => row.amount as string))).toBe(sums.BTC?.total);
    expect(ledger.some((row) => (row.amount as string).startsWith('-'))).toBe(true);
    // Fees: the trade's fee as it went to fee income, and the sendout's network fee.
    const fees = parseCsv(files['fees.csv'] as string);
    const tradeFee = await t.db.sql.get<{ fee: number }>('SELECT fee_amount AS fee FROM trades WHERE hash = ?', [
      trade.hash,
    ]);
    expect(fees).toEqual([
      expect.objectContaining({ kind: 'trade_fee', reference: trade.hash, currency: 'BTC' }),
      expect.objectContaining({ kind: 'network_fee', currency: 'BTC', amount: '0.00002000' }),
    ]);
    expect(satoshi([fees[0]?.amount as string])).toBe(Number(tradeFee?.fee));
    // The chat line that looks like a formula is text, escaped as OWASP says.
    const chat = parseCsv(files['chat.csv'] as string);
    expect(chat.find((row) => row.message?.includes('HYPERLINK'))?.message).toBe(`'${FORMULA}`);
    expect(files['chat.csv']).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(parseCsv(files['feedback.csv'] as string)).toEqual([
      expect.objectContaining({ direction: 'received', trade: trade.hash, rating: 'positive', message: "'+1 fast" }),
    ]);
    expect(parseCsv(files['deposits.csv'] as string)).toEqual([
      expect.objectContaining({ amount: '0.00070000', status: 'confirmed', currency: 'BTC' }),
    ]);
    expect(parseCsv(files['sendouts.csv'] as string)).toEqual([
      expect.objectContaining({ amount: '0.00100000', fee: '0.00002000', address: BTC_ADDRESS }),
    ]);
    // Whole cells only: a random id may well contain "NaN" ("ltx_ZpLTNaNB…").
    const broken = /^(NaN|undefined|null|-?\d+(\.\d+)?e[+-]\d+)$/;
    for (const row of [...trades, ...ledger]) for (const cell of Object.values(row)) expect(cell).not.toMatch(broken);
    // The person hears it is ready, in the bell.
    const bell = await t.db.sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND type = 'export_ready'",
      [vendorId],
    );
    expect(Number(bell?.n)).toBe(1);
  });

  it('writes the same as one JSON document, amounts as decimal strings and times in UTC', async () => {
    const { trade, vendorId } = await vendorsDay();
    const queued = await dataOf<View>(await request(vendor, { format: 'json', from: TODAY, to: TODAY }), 202);
    await t.services.exports.runUntilIdle();
    const view = await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`));
    const res = await vendor.get(view.downloadUrl as string);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = (await res.json()) as Record<string, Record<string, unknown>[]> & { account: { username: string } };
    expect(doc).toMatchObject({ type: 'coinfair.export', version: 1, from: `${TODAY}T00:00:00.000Z` });
    expect(doc.trades).toEqual([expect.objectContaining({ trade: trade.hash, fiat_amount: '100.00' })]);
    const sums = await ledgerSums(vendorId, Date.parse(`${TODAY}T00:00:00Z`), TEST_NOW + 1);
    expect(satoshi(doc.ledger?.map((row) => row.amount as string) ?? [])).toBe(sums.BTC?.total);
    for (const row of doc.ledger ?? []) {
      expect(typeof row.amount).toBe('string');
      expect(row.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // JSON needs no formula escape: the message is as written.
    expect(doc.chat?.some((row) => row.message === FORMULA)).toBe(true);
    expect(doc.deposits).toHaveLength(1);
    expect(doc.sendouts).toHaveLength(1);
  });
});

describe('the range of days', () => {
  it('includes the first day from midnight and the last day to its end, UTC', async () => {
    const person = await createUser(t);
    const at = async (iso: string, amount: number) => {
      t.clock.now = Date.parse(iso);
      await t.services.ledger.post(job, {
        kind: 'deposit',
        idempotencyKey: `edge:${iso}`,
        legs: [
          { account: systemAccount('chain_in', 'BTC'), amount: -amount },
          { account: walletOf(person.id, 'BTC'), amount },
        ],
      });
    };
    await at('2026-11-09T23:59:59.999Z', 1);
    await at('2026-11-10T00:00:00.000Z', 10);
    await at('2026-11-12T23:59:59.999Z', 100);
    await at('2026-11-13T00:00:00.000Z', 1000);
    t.clock.now = TEST_NOW;
    const session = await person.session();
    const queued = await dataOf<View>(
      await session.post('/rest/v1/exports', { format: 'json', from: '2026-11-10', to: '2026-11-12' }),
      202,
    );
    await t.services.exports.runUntilIdle();
    const doc = await (await session.get(`/rest/v1/exports/${queued.id}/file`)).json();
    expect(doc.ledger.map((row: { amount: string }) => row.amount)).toEqual(['0.00000010', '0.00000100']);
    expect(doc.to).toBe('2026-11-13T00:00:00.000Z');
  });

  it('ends a range that reaches today at the moment of the request', async () => {
    const person = await createUser(t, { funded: { BTC: 5_000 } });
    const session = await person.session();
    const queued = await dataOf<View>(
      await session.post('/rest/v1/exports', { format: 'json', from: TODAY, to: '2099-12-31' }),
      202,
    );
    t.clock.now += 1;
    await t.services.ledger.post(job, {
      kind: 'deposit',
      idempotencyKey: 'after-request',
      legs: [
        { account: systemAccount('chain_in', 'BTC'), amount: -7 },
        { account: walletOf(person.id, 'BTC'), amount: 7 },
      ],
    });
    await t.services.exports.runUntilIdle();
    const doc = await (await session.get(`/rest/v1/exports/${queued.id}/file`)).json();
    expect(doc.to).toBe(new Date(TEST_NOW + 1).toISOString());
    expect(doc.ledger.map((row: { amount: string }) => row.amount)).toEqual(['0.00005000']);
  });

  it.each([
    [{ format: 'xlsx', from: TODAY, to: TODAY }, 'format'],
    [{ format: 'csv', to: TODAY }, 'from'],
    [{ format: 'csv', from: '2026/11/01', to: TODAY }, 'from'],
    [{ format: 'csv', from: '2026-02-30', to: TODAY }, 'from'],
    [{ format: 'csv', from: TODAY, to: '2026-13-01' }, 'to'],
    [{ format: 'csv', from: '2026-11-20', to: '2026-11-19' }, 'to'],
    [{ format: 'csv', from: '2026-12-01', to: '2026-12-02' }, 'from'],
  ])('refuses %j with the field %s named', async (body, field) => {
    const res = await request(vendor, body);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    expect(await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM data_exports')).toEqual({ n: 0 });
  });

  it('says in the person’s language when the last day comes before the first', async () => {
    const res = await vendor.post('/rest/v1/exports?locale=de', {
      format: 'csv',
      from: '2026-11-20',
      to: '2026-11-19',
    });
    expect((await errorOf(res)).details?.[0]?.message).toBe('Der letzte Tag darf nicht vor dem ersten Tag liegen.');
  });
});

describe('who may do what', () => {
  it('lets two exports be built at a time per person, then answers 429 with a code', async () => {
    await dataOf(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    await dataOf(await request(vendor, { format: 'json', from: TODAY, to: TODAY }), 202);
    const third = await request(vendor, { format: 'csv', from: TODAY, to: TODAY });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('30');
    expect(await errorOf(third)).toMatchObject({ code: 'TOO_MANY_EXPORTS' });
    // Another person is not held back by the vendor's exports.
    await dataOf(await request(buyer, { format: 'csv', from: TODAY, to: TODAY }), 202);
    await t.services.exports.runUntilIdle();
    await dataOf(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
  });

  it('shows and serves an export to its owner only: anyone else gets 404, a visitor 401', async () => {
    const queued = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    await t.services.exports.runUntilIdle();
    for (const path of [`/rest/v1/exports/${queued.id}`, `/rest/v1/exports/${queued.id}/file`]) {
      const res = await buyer.get(path);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND' });
      expect((await t.send(path)).status).toBe(401);
    }
    expect(await dataOf<View[]>(await buyer.get('/rest/v1/exports'))).toEqual([]);
    expect((await dataOf<View[]>(await vendor.get('/rest/v1/exports'))).map((v) => v.id)).toEqual([queued.id]);
  });

  it('answers 409 while the file is built, 410 once its link expired, and then the file is gone', async () => {
    const queued = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    const early = await vendor.get(`/rest/v1/exports/${queued.id}/file`);
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatchObject({ code: 'EXPORT_NOT_READY' });
    await t.services.exports.runUntilIdle();
    const owner = await t.db.sql.get<{ publicId: string }>(
      "SELECT public_id AS publicId FROM users WHERE email = 'vendor@example.com'",
    );
    const path = join(t.uploadsDir, 'exports', owner?.publicId as string, `${queued.id}.zip`);
    expect(existsSync(path)).toBe(true);
    t.clock.now = TEST_NOW + EXPORT_KEEP_MS - 1;
    expect((await vendor.get(`/rest/v1/exports/${queued.id}/file`)).status).toBe(200);
    t.clock.now = TEST_NOW + EXPORT_KEEP_MS;
    const late = await vendor.get(`/rest/v1/exports/${queued.id}/file`);
    expect(late.status).toBe(410);
    expect(await errorOf(late)).toMatchObject({ code: 'EXPORT_EXPIRED' });
    expect(await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`))).toMatchObject({
      status: 'expired',
      downloadUrl: null,
      size: null,
    });
    expect(await t.services.exports.sweepExpired()).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect((await vendor.get(`/rest/v1/exports/${queued.id}/file`)).status).toBe(410);
  });

  it('refuses a request without the CSRF token', async () => {
    const session = await (await createUser(t)).session();
    const res = await t.app.request('http://localhost/rest/v1/exports', {
      method: 'POST',
      headers: { cookie: session.cookie, 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ format: 'csv', from: TODAY, to: TODAY }),
    });
    expect(res.status).toBe(403);
  });
});

describe('the background build', () => {
  /** The service as another process (or the same after a restart) builds it: small chunks. */
  const builder = () =>
    createExportsService({
      db: t.db,
      uploadsDir: t.uploadsDir,
      now: () => t.clock.now,
      notify: t.services.notifications.notify,
      log: { info() {}, error() {} },
      chunkRows: 2,
    });
  const progressOf = async (id: string) => (await dataOf<View>(await vendor.get(`/rest/v1/exports/${id}`))).progress;

  it('moves its progress chunk by chunk, and the counted total is what the file holds', async () => {
    await vendorsDay();
    const queued = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    const build = builder();
    expect(await build.stepOnce()).toBe('started');
    const { total } = await progressOf(queued.id);
    expect(total).toBeGreaterThan(6);
    expect(await progressOf(queued.id)).toEqual({ done: 0, total });
    const seen: number[] = [];
    for (;;) {
      const step = await build.stepOnce();
      if (step === 'ready') break;
      expect(step).toBe('chunk');
      const { done } = await progressOf(queued.id);
      if (seen.at(-1) !== done) seen.push(done);
      expect(done - (seen.at(-2) ?? 0)).toBeLessThanOrEqual(2);
    }
    expect(seen.length).toBeGreaterThan(2);
    expect(await progressOf(queued.id)).toEqual({ done: total, total });
    expect(await t.db.sql.get<{ n: number }>('SELECT count(*) AS n FROM data_export_parts')).toEqual({ n: 0 });
  });

  it('resumes after a restart mid-way and writes the same file as a build in one go', async () => {
    await vendorsDay();
    const straight = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    await builder().runUntilIdle();
    const resumed = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    const first = builder();
    for (let i = 0; i < 4; i += 1) await first.stepOnce();
    const half = await progressOf(resumed.id);
    expect(half.done).toBeGreaterThan(0);
    expect(half.done).toBeLessThan(half.total);
    // The first process is gone; a new one (a restart, or a new jobs leader) takes over.
    await builder().runUntilIdle();
    const a = await downloadZip(vendor, await dataOf<View>(await vendor.get(`/rest/v1/exports/${straight.id}`)));
    const b = await downloadZip(vendor, await dataOf<View>(await vendor.get(`/rest/v1/exports/${resumed.id}`)));
    expect(b).toEqual(a);
    expect(await progressOf(resumed.id)).toEqual({ done: half.total, total: half.total });
  });

  it('fails an export whose file cannot be written after its third attempt, and lets the person ask again', async () => {
    const blocked = join(t.uploadsDir, 'blocked');
    writeFileSync(blocked, 'a file where the exports folder would go');
    const broken = createExportsService({
      db: t.db,
      uploadsDir: blocked,
      now: () => t.clock.now,
      notify: t.services.notifications.notify,
      log: { info() {}, error() {} },
    });
    const queued = await dataOf<View>(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
    await dataOf(await request(vendor, { format: 'json', from: TODAY, to: TODAY }), 202);
    const steps: unknown[] = [];
    for (
      let i = 0;
      i < 60 && (await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`))).status !== 'failed';
      i += 1
    )
      steps.push(await broken.stepOnce());
    expect(steps.filter((step) => step === 'failed')).toHaveLength(3);
    expect(await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`))).toMatchObject({
      status: 'failed',
      downloadUrl: null,
    });
    const parts = await t.db.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM data_export_parts p JOIN data_exports e ON e.id = p.export_id WHERE e.public_id = ?',
      [queued.id],
    );
    expect(Number(parts?.n)).toBe(0);
    // A failed export no longer counts against the two at a time.
    await dataOf(await request(vendor, { format: 'csv', from: TODAY, to: TODAY }), 202);
  });

  it('never stores a chunk twice when two processes step the same export at once', async () => {
    await vendorsDay();
    const queued = await dataOf<View>(await request(vendor, { format: 'json', from: TODAY, to: TODAY }), 202);
    const [one, two] = [builder(), builder()];
    await one.stepOnce();
    for (let i = 0; i < 40; i += 1) await Promise.all([one.stepOnce(), two.stepOnce()]);
    const view = await dataOf<View>(await vendor.get(`/rest/v1/exports/${queued.id}`));
    expect(view.status).toBe('ready');
    const doc = await (await vendor.get(view.downloadUrl as string)).json();
    const rows = ['trades', 'ledger', 'fees', 'chat', 'feedback', 'deposits', 'sendouts'].reduce(
      (n, key) => n + doc[key].length,
      0,
    );
    expect(rows).toBe(view.progress.total);
  });
});
