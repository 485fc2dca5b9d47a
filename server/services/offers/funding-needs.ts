import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { ESCROW_FEE_BASIS_POINTS } from '../../../src/lib/shared/fees.ts';

// What a sell offer's owner must hold for the offer to be listed, kept on the offer itself
// (`offers.need_usd`, `offers.need_crypto`), so the listing compares the owner's wallet (the copy
// on their users row) with two columns of its covering index instead of joining the ledger and
// pricing every offer: at 100,000 offers the search without a currency took 2.8 times as long
// with that join (docs/decisions/121-unfunded-sell-offers.md).
//
// - A fixed-price offer's need does not move: the crypto of its smallest trade at its price, plus
//   the seller's escrow fee, in the trade start's integers (src/lib/shared/offer-funding.ts).
// - A margin offer's need in crypto moves with the market, but the wallet's worth in US dollars
//   at the market does not, so that is kept: the smallest trade with the fee, in US dollars at the
//   offer's margin (its currency's rate of `fiat_currencies.usd_rate`, as the listing's sort
//   reads it).
//
// The SQL is set at every offer write (repository), by the seed, and copied as it is into the
// migrations that introduced the columns (0026, PostgreSQL 0010); a change here needs a migration
// that recomputes them.

const FIAT = `(SELECT %s FROM fiat_currencies fc WHERE fc.id = offers.fiat_currency_id)`;
const FIAT_SCALE = FIAT.replace(
  '%s',
  'CASE fc.minor_units WHEN 0 THEN 1 WHEN 1 THEN 10 WHEN 2 THEN 100 WHEN 3 THEN 1000 ELSE 10000 END',
);
const CRYPTO_SCALE = `(SELECT CASE cc.code WHEN 'USDT' THEN 1000000 ELSE 100000000 END
  FROM crypto_currencies cc WHERE cc.id = offers.crypto_currency_id)`;

/** The seller's escrow fee in basis points, by the offer's payment group (src/lib/shared/fees.ts). */
const FEE_POINTS = `CASE ${Object.entries(ESCROW_FEE_BASIS_POINTS)
  .filter(([slug]) => slug !== 'default')
  .map(
    ([slug, points]) => `WHEN offers.payment_method_id IN (SELECT pm.id FROM payment_methods pm
    JOIN payment_groups g ON g.id = pm.group_id WHERE g.slug = '${slug}') THEN ${points}`,
  )
  .join(' ')} ELSE ${ESCROW_FEE_BASIS_POINTS.default} END`;

/** Crypto minor units of the smallest trade at a fixed price, rounded half up (integer division). */
const FIXED_CRYPTO = `((offers.fiat_min_minor * ${CRYPTO_SCALE} * 2 + offers.fixed_price_minor) / (2 * offers.fixed_price_minor))`;

const NEED_CRYPTO = `CASE WHEN offers.type = 'sell' AND offers.price_type = 'fixed'
  THEN ${FIXED_CRYPTO} + (${FIXED_CRYPTO} * (${FEE_POINTS}) + 9999) / 10000 ELSE 0 END`;

const NEED_USD = `CASE WHEN offers.type = 'sell' AND offers.price_type = 'margin'
  THEN offers.fiat_min_minor * 1.0 / ${FIAT_SCALE} / ${FIAT.replace('%s', 'fc.usd_rate')}
    / (1 + offers.margin_basis_points / 10000.0) * (1 + (${FEE_POINTS}) / 10000.0) ELSE 0 END`;

/** Sets both needs of the offers `where` selects (a condition on `offers`, `?` parameters allowed). */
export const setNeedsWhere = (where: string) =>
  `UPDATE offers SET need_usd = ${NEED_USD}, need_crypto = ${NEED_CRYPTO} WHERE ${where}`;

/** Recomputes the needs of the offers `where` selects: after a write that went around the repository (the seed). */
export async function refreshFundingNeeds(db: DatabaseLike, where = '1 = 1', params: unknown[] = []): Promise<void> {
  await asDatabase(db).sql.run(setNeedsWhere(where), params);
}

/** What `@minorPerUsd` is for the listing: the crypto's minor units per US dollar at the market. */
export const minorPerUsd = (cryptoUsd: number, cryptoDecimals: number) =>
  // Without a market price no margin offer can be priced (a finite stand-in: 0 × Infinity is NaN).
  cryptoUsd > 0 ? 10 ** cryptoDecimals / cryptoUsd : 1e300;
