import { cryptoCodes, type PriceTick } from '../price-feed/price-feed.ts';
import { bucketStart, pruneCutoffs, RESOLUTIONS } from './buckets.ts';
import { type MarketParts, seconds } from './deps.ts';
import type { PriceHistoryRow } from './repository.ts';

/** Deleting old buckets is a range scan: once every ten minutes is plenty. */
const PRUNE_EVERY_SECONDS = 600;

/** Writes the tick as the close of its minute, hour and day buckets; now and then drops old ones. */
export async function recordTick({ repo, pruning }: MarketParts, tick: PriceTick): Promise<void> {
  const at = seconds(tick.at);
  const rows: PriceHistoryRow[] = cryptoCodes.flatMap((crypto) =>
    RESOLUTIONS.map((resolution) => ({
      crypto,
      resolution,
      at: bucketStart(at, resolution),
      usd: tick.usd[crypto],
    })),
  );
  const prune = at - pruning.lastPrunedAt >= PRUNE_EVERY_SECONDS;
  await repo.write(rows, prune ? pruneCutoffs(at) : []);
  if (prune) pruning.lastPrunedAt = at;
}
