import { seededRandom } from '../../../db/seed/random.ts';
import { type CryptoCode, cryptoCodes } from '../price-feed/price-feed.ts';
import { SIMULATED_MARKET } from '../price-feed/walk.ts';
import { pruneCutoffs } from './buckets.ts';
import { type MarketParts, type Resumed, seconds } from './deps.ts';
import type { PriceHistoryRow } from './repository.ts';
import { historyRows, syntheticWalk } from './synthetic-history.ts';

/** A gap shorter than a minute bucket is no gap. */
const MIN_GAP_SECONDS = 60;
const GAP_SEED: Record<CryptoCode, number> = { BTC: 0x6a9b, USDT: 0x7e7e };

/**
 * Sets the feed to the last persisted prices, so a restart continues the line instead of
 * jumping back to the built-in anchors. A simulated market also invents the time it was down
 * (a walk from the last price to now); a real one leaves the gap, because we do not know what
 * the market did, and the chart shows it as missing points.
 */
export async function resumeHistory({ repo, priceFeed, now, pruning }: MarketParts): Promise<Resumed> {
  const last = await Promise.all(cryptoCodes.map(async (crypto) => ({ crypto, row: await repo.latest(crypto) })));
  const known = last.flatMap(({ crypto, row }) => (row ? [{ crypto, ...row }] : []));
  if (known.length === 0) return { from: undefined, filledSeconds: 0 };
  const at = seconds(now());
  const from = Math.min(...known.map((k) => k.at));
  const usd = { BTC: priceFeed.usdPrice('BTC'), USDT: priceFeed.usdPrice('USDT') };
  for (const k of known) usd[k.crypto] = k.usd;
  if (priceFeed.source !== 'simulated' || at - from < MIN_GAP_SECONDS) {
    priceFeed.resumeFrom({ at: from * 1000, usd });
    return { from, filledSeconds: 0 };
  }
  const rows: PriceHistoryRow[] = [];
  for (const k of known) {
    if (at - k.at < MIN_GAP_SECONDS) continue;
    const points = syntheticWalk({
      model: SIMULATED_MARKET[k.crypto],
      from: k.at,
      to: at,
      pinned: { side: 'from', usd: k.usd },
      // Seeded by where the gap starts: the same database resumes the same way.
      random: seededRandom(GAP_SEED[k.crypto] ^ k.at).next,
    });
    usd[k.crypto] = points[points.length - 1]?.usd ?? k.usd;
    for (const row of historyRows(points, at)) rows.push({ crypto: k.crypto, ...row });
  }
  await repo.write(rows, pruneCutoffs(at));
  pruning.lastPrunedAt = at;
  priceFeed.resumeFrom({ at: at * 1000, usd });
  return { from, filledSeconds: at - from };
}
