// The fee schedule (fees page, spec section 3 `paxfulFee`): buyers pay nothing; the seller pays an
// escrow fee on the crypto of a completed trade, higher for gift cards, which need more
// moderation. One table for the fees page, the offer view and the trade's ledger postings.

/** Escrow fee in basis points (100 = 1 %), by payment group slug; `default` for the rest. */
export const ESCROW_FEE_BASIS_POINTS: Readonly<Record<string, number>> = {
  default: 100,
  'gift-cards': 500,
};

/** Conversion spread between BTC and USDT, in basis points. */
export const CONVERSION_SPREAD_BASIS_POINTS = 50;

export function escrowFeeBasisPoints(groupSlug: string): number {
  return ESCROW_FEE_BASIS_POINTS[groupSlug] ?? (ESCROW_FEE_BASIS_POINTS.default as number);
}
