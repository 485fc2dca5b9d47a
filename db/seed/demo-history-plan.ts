import { asc } from 'drizzle-orm';
import type { OfferView } from '../../server/services/offers/offer-view.ts';
import type { CryptoCode } from '../../server/services/price-feed/price-feed.ts';
import { SIMULATED_MARKET } from '../../server/services/price-feed/walk.ts';
import type { Database } from '../database.ts';
import { priceHistory } from '../schema/index.ts';
import type { SeededRandom } from './random.ts';

// The demo history's plan: when each demo vendor trades, on which offer and for how much, and
// the past prices those trades happen at (db/seed/demo-history.ts plays the plan through the
// services).

/** No single demo trade above this many US dollars, so nobody's 30-day limit runs out. */
const TRADE_USD_CAP = 1_500;
const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface Slot {
  vendorId: number;
  /** The vendor's offers to try, the planned one first. */
  offerHashes: string[];
  at: number;
  cancel: boolean;
}

/**
 * What a buyer of the pool could ever start: active (gift-card offers too: the buyer pays with
 * cards it saves first), no proofs to upload, open to people the vendor has not marked trusted.
 */
const STARTABLE_OFFERS = `SELECT o.hash AS hash, o.created_at AS createdAt FROM offers o
   WHERE o.owner_id = ? AND o.status = 'active'
     AND o.trade_requirements = '[]' AND o.show_only_trusted_user = 0
   ORDER BY o.id`;

/**
 * 4 to 10 completed trades per vendor and now and then a cancelled one, each on one of the
 * vendor's active offers at a time after both the vendor and the offer existed; sorted by time.
 */
export async function planSlots(
  database: Database,
  random: SeededRandom,
  vendors: { id: number; createdAt: number }[],
  start: number,
  now: number,
): Promise<Slot[]> {
  const slots: Slot[] = [];
  // Planned up to two days ago: trades run one after the other, and a bunch near the end could
  // otherwise run into the cut-off.
  const latest = now - 2 * DAY;
  for (const vendor of vendors) {
    // Offers that existed, with their vendor, at least a day before the last trade may start.
    const own = (await database.sql.all<{ hash: string; createdAt: number }>(STARTABLE_OFFERS, [vendor.id]))
      .map((o) => ({ hash: o.hash, from: Math.max(start, vendor.createdAt, o.createdAt) + HOUR }))
      .filter((o) => o.from < latest - DAY);
    if (own.length === 0) continue;
    const completed = random.int(4, 10);
    const cancelled = random.chance(0.35) ? random.int(1, 2) : 0;
    for (let i = 0; i < completed + cancelled; i++) {
      // Planned on one offer; the others that existed by then are the fallback when nobody may start it.
      const offer = random.pick(own);
      const at = offer.from + Math.floor(random.next() * (latest - offer.from));
      const others = own.filter((o) => o !== offer && o.from <= at).map((o) => o.hash);
      slots.push({
        vendorId: vendor.id,
        offerHashes: [offer.hash, ...shuffled(random, others)],
        at,
        cancel: i >= completed,
      });
    }
  }
  return slots.sort((a, b) => a.at - b.at || a.vendorId - b.vendorId);
}

/**
 * A round amount in the offer's currency, as a person types it in the start widget: from the
 * minimum the page shows, mostly small, never above its maximum or TRADE_USD_CAP.
 */
export function amountFor(random: SeededRandom, offer: OfferView, limits: { min: number; max: number }): string {
  const fiatPerUsd = offer.fiatUSDPricePerBtc > 0 ? offer.fiatPricePerCrypto / offer.fiatUSDPricePerBtc : 1;
  const high = Math.min(limits.max, TRADE_USD_CAP * fiatPerUsd);
  let amount = limits.min;
  if (high > limits.min) {
    const raw = limits.min + (high - limits.min) * random.next() ** 2;
    const step = Math.max(10 ** (Math.floor(Math.log10(raw)) - 1), 10 ** -offer.fiatDecimals);
    const rounded = Math.round(raw / step) * step;
    if (rounded >= limits.min && rounded <= high) amount = rounded;
  }
  return amount.toFixed(offer.fiatDecimals);
}

/** US dollars per coin at a moment: the newest seeded chart point at or before it, else the anchor. */
export async function pastPrices(database: Database): Promise<(crypto: CryptoCode, atMs: number) => number> {
  const series = new Map<string, { at: number; usd: number }[]>();
  const rows = await database.all(
    database.orm
      .select({ crypto: priceHistory.crypto, at: priceHistory.at, usd: priceHistory.usd })
      .from(priceHistory)
      // Equal times in the order SQLite gave them (coarser bucket last, so it wins the search).
      .orderBy(asc(priceHistory.at), asc(priceHistory.resolution)),
  );
  for (const row of rows) {
    const list = series.get(row.crypto) ?? [];
    list.push({ at: row.at, usd: row.usd });
    series.set(row.crypto, list);
  }
  return (crypto, atMs) => {
    const list = series.get(crypto) ?? [];
    const at = Math.floor(atMs / 1000);
    let lo = 0;
    let hi = list.length - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const point = list[mid] as { at: number; usd: number };
      if (point.at <= at) {
        found = point.usd;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found ?? SIMULATED_MARKET[crypto].anchor;
  };
}

export function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
