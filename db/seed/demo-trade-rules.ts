import type { OfferTradeRequirement } from '../../src/lib/shared/trade-requirements.ts';
import type { offers } from '../schema/index.ts';

// What some demo offers ask once a trade starts, so the payment-terms warning, a trade without the
// buyers' warning and the proof uploads all show in the demo market: gold terms, a skipped warning
// and proofs to upload (spec sections 3 and 4; the editor's "During the trade" card sets them).
//
// Chosen by the offer's place in the seed and its age, never drawn: a draw more would move every
// later one, and with them the whole demo market and its history.

type OfferRow = typeof offers.$inferInsert;

const DAY = 86_400_000;

/**
 * Offers at most this old ask for proofs. The demo history (demo-history-plan.ts) plans its
 * trades on offers older than three days and never on offers asking for proofs (its buyers upload
 * none): asking the young ones leaves the history as it was.
 */
const PROOF_MAX_AGE_DAYS = 3;

/** The proofs the young offers ask for, by turns. */
const DEMO_PROOFS: readonly (readonly OfferTradeRequirement[])[] = [
  [{ kind: 'receipt', stage: 'before_paid', optional: false }],
  [
    { kind: 'photo_id', stage: 'before_reveal', optional: false },
    { kind: 'receipt', stage: 'before_paid', optional: true },
  ],
  [{ kind: 'bank_statement', stage: 'before_paid', optional: false }],
];

/**
 * The demo offer at `index` (its place among the seed's offers) with its trade rules: every 40th
 * from the 14th has gold terms, every 40th from the 28th that sells skips the buyers' warning
 * (only sell offers have it), and the young ones ask for proofs.
 */
export function withTradeRules(row: OfferRow, index: number, now: number): OfferRow {
  const isGold = index % 40 === 13;
  const isSkipWarnings = row.type === 'sell' && index % 40 === 27;
  const young = row.createdAt >= now - PROOF_MAX_AGE_DAYS * DAY;
  if (!isGold && !isSkipWarnings && !young) return row;
  return {
    ...row,
    isGold,
    isSkipWarnings,
    ...(young ? { tradeRequirements: (DEMO_PROOFS[index % DEMO_PROOFS.length] ?? []).map((r) => ({ ...r })) } : {}),
  };
}
