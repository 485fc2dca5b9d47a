import type { ListingSort } from '../../../src/lib/shared/listing-sort.ts';

// The ORDER BY of the listing search (repository.ts), one per `sort` (decision 133). Each sorts
// inside the featured list and the others (k1) and, in each, the owners seen in the last two hours
// before the rest (k2), so the lists, their counts and the `offers.last_seen_trades` row stay as
// the contract has them. The default `price` is exactly the order there was before `sort`: the
// price against the market (k3), dearest first for a visitor who sells. The others put their own
// key (k4) before the price, which then breaks ties; the offer id ends every order, so pages never
// overlap. Amounts compare across currencies in US dollars, through the currency's USD rate.

/** 10^minor units of the offer's currency (0, 2 or 3 in ISO 4217's active list). */
export const MINOR_SCALE =
  'CASE fc.minor_units WHEN 0 THEN 1 WHEN 1 THEN 10 WHEN 2 THEN 100 WHEN 3 THEN 1000 ELSE 10000 END';

const inUsd = (minorColumn: string) => `${minorColumn} * 1.0 / (${MINOR_SCALE}) / fc.usd_rate`;

/** The sort key (k4) of each order but the default, and its direction. */
const SORT_KEYS: Record<Exclude<ListingSort, 'price'>, { key: string; direction: 'ASC' | 'DESC' }> = {
  // The smallest first trade first: someone with a little to spend finds where to start.
  'limit-min': { key: inUsd('o.fiat_min_minor'), direction: 'ASC' },
  // The largest trade first: someone with a lot finds who can take it in one go.
  'limit-max': { key: inUsd('o.fiat_max_minor'), direction: 'DESC' },
  // Net feedback, then completed trades: 990 good and 10 bad ranks above 1 good and none.
  reputation: { key: 'u.feedback_positive - u.feedback_negative', direction: 'DESC' },
  'last-seen': { key: 'u.last_seen_at', direction: 'DESC' },
};

/** Reputation's second key: the owner's completed trades. */
const REPUTATION_TRADES = 'u.completed_trades';

export interface SearchOrder {
  /** Extra select-list columns of the inner query (`, … AS k4…`), empty for the default. */
  columns: string;
  /** The inner ORDER BY, over the inner query's aliases. */
  inner: string;
  /** The outer ORDER BY, over the page's columns (`page.k…`). */
  outer: string;
}

export function searchOrder(sort: ListingSort, cheapestFirst: boolean): SearchOrder {
  const price = cheapestFirst ? 'ASC' : 'DESC';
  if (sort === 'price') {
    return {
      columns: '',
      inner: `k1 DESC, k2, k3 ${price}, o.id`,
      outer: `page.k1 DESC, page.k2, page.k3 ${price}, o.id`,
    };
  }
  const { key, direction } = SORT_KEYS[sort];
  const trades = sort === 'reputation';
  const columns = `, ${key} AS k4${trades ? `, ${REPUTATION_TRADES} AS k5` : ''}`;
  const order = (p: string) =>
    `${p}k1 DESC, ${p}k2, ${p}k4 ${direction}${trades ? `, ${p}k5 DESC` : ''}, ${p}k3 ${price}, o.id`;
  return { columns, inner: order(''), outer: order('page.') };
}
