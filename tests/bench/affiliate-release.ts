// Affiliate shares at release (issue 20: a release with shares at ≥ 0.9× the rate of one without),
// and with BENCH_WITH=webhooks the webhooks outbox at release (issue 21, the same goal), run by
// `npm run bench` or alone (`node tests/bench/affiliate-release.ts`). On each engine, a
// database from tests/bench/prepare-engine.ts (the demo, 2 × PAIRS buyers and vendors), then
// tests/bench/release-shares.ts in one process releases the same number of started and paid
// trades through the trades service (no HTTP) without referrers and with three shares per release.
// PostgreSQL (BENCH_POSTGRES_URL) in a scratch database, skipped when it does not answer.
// Everything on 127.0.0.1, bounded in time and count; nothing here fails a test.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchPostgres } from './scratch-postgres.ts';

const root = new URL('../..', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Buyer and vendor pairs on each side. */
const PAIRS = 20;
/** Trades released per side, in four rounds a side (A B B A A B B A). */
const RELEASES = Number(process.env.BENCH_RELEASES ?? 400);
/**
 * Releases in flight at once: one by default, so the ratio compares the work a release does. On
 * SQLite writes take turns anyway; on PostgreSQL concurrent releases all update the fee-income
 * account, and SERIALIZABLE retries would make the figure a measure of retry luck (docs/scaling.md).
 */
const LOOPS = Number(process.env.BENCH_RELEASE_LOOPS ?? 1);
const GOAL = 0.9;
/** What the "with" side adds (tests/bench/release-shares.ts): affiliate shares, or merchants' webhooks. */
const WITH = process.env.BENCH_WITH === 'webhooks' ? 'webhooks' : 'affiliates';
const POSTGRES_ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

const work = mkdtempSync(join(tmpdir(), 'coinfair-bench-affiliates-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const pgName = `coinfair_bench_affiliates_${process.pid}`;
const scratch = scratchPostgres(POSTGRES_ADMIN, pgName);
const pgUrl = scratch.url;
const postgresAdmin = scratch.admin;

interface Side {
  releases: number;
  prepared: number;
  failed: number;
  perSecond: number;
  p50: number;
  p99: number;
  earnings: number;
  rounds: number[];
}
interface Measured {
  without: Side;
  with: Side;
  violations: number;
}

/** Prepares `database` for `dialect` and measures both sides there, each step in a process of its own. */
function measure(database: string, dialect: 'sqlite' | 'postgres'): Measured {
  const env = { ...process.env, COINFAIR_DIALECT: dialect };
  execFileSync(process.execPath, [join(root, 'tests/bench/prepare-engine.ts'), database, '0', String(2 * PAIRS)], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const out = execFileSync(
    process.execPath,
    [
      join(root, 'tests/bench/release-shares.ts'),
      database,
      String(PAIRS),
      String(RELEASES),
      String(LOOPS),
      String(SECONDS),
    ],
    { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Measured;
}

const results: [string, Measured][] = [['SQLite', measure(join(work, 'affiliates.db'), 'sqlite')]];
try {
  await postgresAdmin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  await postgresAdmin(`CREATE DATABASE ${pgName}`);
  try {
    results.push(['PostgreSQL', measure(pgUrl, 'postgres')]);
  } finally {
    await postgresAdmin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
  }
} catch (error) {
  console.log(`\nAffiliate shares: PostgreSQL at ${POSTGRES_ADMIN} skipped (${String(error).split('\n')[0]})`);
}

const WITH_WHAT =
  WITH === 'webhooks'
    ? 'both parties merchants whose webhooks follow every event: 2 outbox rows written by each release, 6 per trade counted (started, paid, released × 2 parties; issue 21)'
    : 'the buyer referred by a tier-1 affiliate (referred by a tier-2 one), the seller by an affiliate paid for sales: 3 shares, 1 ledger transaction per release (issue 20)';
console.log(
  `\nRelease with ${WITH === 'webhooks' ? "merchants' webhooks" : 'affiliate shares'} vs without: per engine, one process, the trades service directly ` +
    `(no HTTP), ${RELEASES} started and paid trades released per side (rounds A B B A A B B A), ` +
    `${LOOPS} in flight (BENCH_RELEASE_LOOPS); "with": ${WITH_WHAT}`,
);
console.table(
  results.map(([engine, { without, with: shared, violations }]) => {
    const ratio = shared.perSecond / without.perSecond;
    return {
      engine,
      'without: releases/s': Math.round(without.perSecond),
      'p99 ms': without.p99,
      'with: releases/s': Math.round(shared.perSecond),
      'p99 ms (with)': shared.p99,
      ratio: ratio.toFixed(2),
      goal: `≥ ${GOAL}`,
      met: ratio >= GOAL ? 'yes' : 'NO',
      // What makes the comparison fair: both sides released all their trades, only one side earned.
      released: `${without.releases}/${without.prepared} · ${shared.releases}/${shared.prepared}`,
      failed: `${without.failed} · ${shared.failed}`,
      [WITH === 'webhooks' ? 'outbox rows' : 'earnings rows']: `${without.earnings} · ${shared.earnings}`,
      ledger: violations === 0 ? 'holds' : `${violations} VIOLATIONS`,
    };
  }),
);
for (const [engine, { without, with: shared }] of results)
  console.log(
    `${engine}, releases/s per round: without ${without.rounds.join(', ')}; with ${shared.rounds.join(', ')}`,
  );
process.exit(0);
