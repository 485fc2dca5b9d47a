import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { minorToMajor, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { GiftCardView } from '../../../src/lib/shared/views/gift-cards.ts';
import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { GiftCardsDeps } from './deps.ts';
import { cardViews, totalOf } from './views.ts';

// Reading one's own cards: all of them ("My gift cards"), and the free ones a gift-card offer
// takes (spec section 4, start-trade decision 1).

export async function myCards({ repo }: GiftCardsDeps, ctx: PersonContext): Promise<GiftCardView[]> {
  return cardViews(repo, await repo.ofOwner(ctx.auth.user.id));
}

export interface UnusedCards {
  data: GiftCardView[];
  meta: { fiatAmount: number | null; total: number; currency: string; paymentMethod: string; covers: boolean };
}

/**
 * GET /rest/v1/gift-cards/unused/{offerHash}?fiatAmount=: the reader's free cards of the offer's
 * brand and currency, largest first; `covers` says whether some of them add up to the amount.
 */
export async function unusedForOffer(
  { repo, offers }: GiftCardsDeps,
  ctx: PersonContext,
  input: { offerHash: string; fiatAmount?: string | undefined; locale: Locale },
): Promise<UnusedCards> {
  const { row: offerRow, details } = await offers.forTradeStart(ctx, { hash: input.offerHash, locale: input.locale });
  const { offer } = details;
  if (!offer.isGiftCard) {
    throw new AppError('FORBIDDEN', 'This offer is not paid with gift cards.', { key: 'gift_cards_not_for_offer' });
  }
  let amountMinor: number | null = null;
  if (input.fiatAmount !== undefined && input.fiatAmount !== '') {
    const parsed = toMinorUnits(input.fiatAmount, offer.fiatDecimals);
    if (parsed === undefined || parsed <= 0) {
      throw invalidInput([{ field: 'fiatAmount', message: 'must be an amount above 0', key: 'trade_amount_invalid' }]);
    }
    amountMinor = parsed;
  }
  const rows = await repo.freeOfBrand(ctx.auth.user.id, offerRow.paymentMethodId, offerRow.fiatCurrencyId);
  const total = totalOf(rows);
  return {
    data: await cardViews(repo, rows),
    meta: {
      fiatAmount: amountMinor === null ? null : minorToMajor(amountMinor, offer.fiatDecimals),
      total: minorToMajor(total, offer.fiatDecimals),
      currency: offer.fiatCurrency,
      paymentMethod: offer.paymentMethod,
      covers:
        amountMinor !== null &&
        subsetSums(
          rows.map((r) => r.valueMinor),
          amountMinor,
        ),
    },
  };
}

/** Whether some of `values` add up to exactly `target` (few cards, so a set of reachable sums is enough). */
export function subsetSums(values: number[], target: number): boolean {
  let reachable = new Set<number>([0]);
  for (const value of values) {
    const next = new Set(reachable);
    for (const sum of reachable) if (sum + value <= target) next.add(sum + value);
    reachable = next;
    if (reachable.has(target)) return true;
  }
  return reachable.has(target);
}
