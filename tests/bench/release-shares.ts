// One engine's half of the release benchmarks (tests/bench/affiliate-release.ts): trades started
// and paid, then released through the trades service (no HTTP), once among plain pairs and once
// among pairs that make a release do more. BENCH_WITH=affiliates (issue 20, the default): the buyer
// was referred by a tier-1 affiliate (herself referred by a tier-2 affiliate) and the seller by an
// affiliate paid for sales: three shares, one `affiliate_share` ledger transaction and three
// affiliate_earnings rows per release. BENCH_WITH=webhooks (issue 21): both parties are merchants
// whose webhooks follow every event: two outbox rows per release, six per trade counted (start and
// mark-paid write theirs too; the delivery job does not run).
// Same process, same database, same number of trades each way, in rounds ordered A B B A A B B A so
// neither side gets the warmer process, the emptier tables or a quieter moment of a noisy machine.
// A release that fails (on PostgreSQL: a transaction still losing its race after every retry) is
// counted, not timed. Prints one JSON line.
// The database comes from tests/bench/prepare-engine.ts with 2 × pairs buyers and vendors; run with
// the engine's COINFAIR_DIALECT (the tables are built for it at import time).
// Usage: node tests/bench/release-shares.ts <sqlite path | postgres URL> <pairs> <releases> <loops> <seconds>
import { connectDatabase, type Database } from '../../db/database.ts';
import { newId } from '../../db/ids.ts';
import type { AuthState } from '../../server/http/auth.ts';
import { createServices } from '../../server/services/container.ts';
import { personContext, systemContext } from '../../server/services/context.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { WEBHOOK_EVENTS } from '../../src/lib/shared/webhooks.ts';

const [url, pairsText = '20', releasesText = '400', loopsText = '1', secondsText = '5'] = process.argv.slice(2);
if (!url) throw new Error('usage: release-shares.ts <database> <pairs> <releases> <loops> <seconds>');
const PAIRS = Number(pairsText);
const ORDER = ['without', 'with', 'with', 'without', 'without', 'with', 'with', 'without'] as const;
/** Trades released per side and round: `releases` per side in all. */
const TRADES = Math.ceil(Number(releasesText) / (ORDER.length / 2));
/** Releases per side before the measurement, outside it. */
const WARM_UP = 20;
/** Releases in flight at once. */
const LOOPS = Number(loopsText);
/** The longest one round's releases may take: the run stops by itself even on a slow disk. */
const ROUND_CAP_MS = Number(secondsText) * 2000;

const database = await connectDatabase(url, { poolSize: LOOPS + 2 });
const services = createServices({
  db: database,
  priceFeed: createSimulatedPriceFeed({ tickSeconds: 10 }),
  config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'bench <b@example.com>', UPLOADS_DIR: '/tmp', GEOIP: 'off' },
  log: { info() {}, error() {} },
});
const { sql } = database;

const idOf = async (username: string) => {
  const row = await sql.get<{ id: number }>('SELECT id FROM users WHERE username = ?', [username]);
  if (!row) throw new Error(`no ${username}: prepare the database with 2 × ${PAIRS} pairs`);
  return Number(row.id);
};

/** An affiliate: a copy of the demo buyer with empty wallets, in the programme, referred by `referredBy`. */
async function insertAffiliate(name: string, referredBy: number | null, sellSide: boolean): Promise<number> {
  const template = await sql.get<Record<string, unknown>>('SELECT * FROM users WHERE email = ?', ['buyer@example.com']);
  const row: Record<string, unknown> = {
    ...template,
    public_id: newId('usr'),
    username: name,
    email: `${name}@bench.example`,
    referral_code: null,
    referred_by_id: referredBy,
    is_affiliate: 1,
    is_affiliate_pay_for_sell_side: sellSide ? 1 : 0,
    // Empty wallets, as the ledger has them (the buyer's copies would be money it never saw).
    wallet_btc: 0,
    wallet_usdt: 0,
  };
  delete row.id;
  const columns = Object.keys(row);
  const inserted = await sql.get<{ id: number }>(
    `INSERT INTO users (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING id`,
    columns.map((column) => row[column]),
  );
  return Number(inserted?.id);
}

/** Pairs P … 2P-1: buyers referred by tier 1 (whose referrer is tier 2), vendors by a sell-side affiliate. */
async function referTheSecondHalf() {
  const tier2 = await insertAffiliate('benchaffiliate2', null, false);
  const tier1 = await insertAffiliate('benchaffiliate1', tier2, false);
  const sellSide = await insertAffiliate('benchaffiliatesell', null, true);
  for (let i = PAIRS; i < 2 * PAIRS; i++) {
    await sql.run('UPDATE users SET referred_by_id = ? WHERE id = ?', [tier1, await idOf(`benchbuyer${i}`)]);
    await sql.run('UPDATE users SET referred_by_id = ? WHERE id = ?', [sellSide, await idOf(`benchvendor${i}`)]);
  }
}

const authOf = async (username: string): Promise<AuthState> => {
  const { token } = await services.sessions.create(systemContext('bench'), {
    userId: await idOf(username),
    client: { ip: '127.0.0.1', userAgent: 'bench' },
  });
  return (await services.sessions.validate(token)) as AuthState;
};

async function pairsFrom(first: number) {
  const pairs = [];
  for (let i = first; i < first + PAIRS; i++) {
    const vendor = await authOf(`benchvendor${i}`);
    const [offer] = await services.offers.listForUser(personContext(vendor), {
      username: `benchvendor${i}`,
      locale: 'en',
    });
    if (!offer) throw new Error(`benchvendor${i} has no offer`);
    pairs.push({ buyer: await authOf(`benchbuyer${i}`), vendor, offer });
  }
  return pairs;
}
type Pair = Awaited<ReturnType<typeof pairsFrom>>[number];

/** `count` jobs, `loops` at once, until done or `deadline` (performance.now()). */
async function inParallel(count: number, loops: number, deadline: number, job: (n: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (next < count && performance.now() < deadline) await job(next++);
    }),
  );
}

/**
 * Starts and pays `count` trades among `pairs`, one after another (not measured: trades started at
 * once contend on PostgreSQL), then releases them all, LOOPS at once (measured).
 */
async function round(pairs: Pair[], count: number) {
  const paid: { vendor: AuthState; hash: string }[] = [];
  await inParallel(count, 1, Number.POSITIVE_INFINITY, async (n) => {
    const { buyer, vendor, offer } = pairs[n % pairs.length] as Pair;
    const trade = await services.trades.start(personContext(buyer), {
      offer_hash: offer.hash,
      amount_fiat: '50',
      amount_btc: '0.00050000',
      gold_terms: 0,
      original_data: offer.originalData,
      locale: 'en',
      ip: '127.0.0.1',
    });
    await services.trades.markPaid(personContext(buyer), { hash: trade.hash });
    paid.push({ vendor, hash: trade.hash });
  });
  await services.notificationsSettled();
  const latencies: number[] = [];
  let failed = 0;
  const began = performance.now();
  await inParallel(paid.length, LOOPS, began + ROUND_CAP_MS, async (n) => {
    const { vendor, hash } = paid[n] as (typeof paid)[number];
    const started = performance.now();
    try {
      await services.trades.release(personContext(vendor), { hash });
      latencies.push(performance.now() - started);
    } catch (error) {
      if (++failed <= 3) console.error(`release: ${String(error)}`);
    }
  });
  // The round ends when the work its releases set off after their commits is done too (the
  // notifications, each event in a transaction of its own): throughput counts it, latency does not.
  await services.notificationsSettled();
  return { latencies, ms: performance.now() - began, prepared: paid.length, failed };
}

const earningsRows = async () => Number((await sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${COUNTED}`))?.n ?? 0);

/** Pairs P … 2P-1: both parties merchants, each with an enabled webhook following every event. */
async function merchantsInTheSecondHalf() {
  const at = Date.now();
  for (let i = PAIRS; i < 2 * PAIRS; i++) {
    for (const id of [await idOf(`benchbuyer${i}`), await idOf(`benchvendor${i}`)]) {
      await sql.run('UPDATE users SET is_merchant = 1 WHERE id = ?', [id]);
      await sql.run(
        `INSERT INTO webhooks (user_id, url, enabled, secret, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)`,
        [id, 'https://hooks.example.com/bench', `whsec_${Buffer.alloc(24, 7).toString('base64')}`, at, at],
      );
      for (const event of WEBHOOK_EVENTS)
        await sql.run('INSERT INTO webhook_subscriptions (user_id, event) VALUES (?, ?)', [id, event]);
    }
  }
}

const WITH = process.env.BENCH_WITH === 'webhooks' ? 'webhooks' : 'affiliates';
/** What the "with" side does more: its setup, and the rows that show it did it. */
const SETUP = { affiliates: referTheSecondHalf, webhooks: merchantsInTheSecondHalf }[WITH];
const COUNTED = { affiliates: 'affiliate_earnings', webhooks: 'webhook_deliveries' }[WITH];

async function measure(db: Database) {
  await SETUP();
  const sides = { without: await pairsFrom(0), with: await pairsFrom(PAIRS) };
  // Warm both paths (JIT, statement caches, pool) outside the measurement.
  await round(sides.without, WARM_UP);
  await round(sides.with, WARM_UP);
  const totals = {
    without: { latencies: [] as number[], ms: 0, prepared: 0, failed: 0, earnings: 0, rounds: [] as number[] },
    with: { latencies: [] as number[], ms: 0, prepared: 0, failed: 0, earnings: 0, rounds: [] as number[] },
  };
  for (const side of ORDER) {
    const before = await earningsRows();
    const { latencies, ms, prepared, failed } = await round(sides[side], TRADES);
    totals[side].latencies.push(...latencies);
    totals[side].ms += ms;
    totals[side].prepared += prepared;
    totals[side].failed += failed;
    totals[side].rounds.push(Math.round((latencies.length * 1000) / ms));
    totals[side].earnings += (await earningsRows()) - before;
  }
  const summary = (side: (typeof totals)['with']) => {
    const sorted = [...side.latencies].sort((a, b) => a - b);
    const at = (q: number) => Number((sorted[Math.floor(sorted.length * q)] ?? 0).toFixed(1));
    return {
      releases: sorted.length,
      prepared: side.prepared,
      failed: side.failed,
      perSecond: (sorted.length * 1000) / side.ms,
      p50: at(0.5),
      p99: at(0.99),
      earnings: side.earnings,
      /** Releases/s of each round, to judge the noise. */
      rounds: side.rounds,
    };
  };
  return {
    without: summary(totals.without),
    with: summary(totals.with),
    violations: (await verifyLedger(db)).length,
  };
}

try {
  console.log(JSON.stringify(await measure(database)));
} finally {
  await database.close();
}
process.exit(0);
