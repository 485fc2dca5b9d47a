import { type ApiResult, apiGet, apiRequest } from '../../lib/api-client.ts';
import { toMinorUnits } from '../../lib/shared/money.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { cryptoForFiat } from './amounts.ts';

// Start-trade decision 1 (spec section 4) without React: the person's free cards of the offer's
// brand and currency, whether the chosen ones make up the amount exactly, the gift trade start
// (amounts as numbers, spec section 5) and the gift-code trade page to go on to otherwise.

export interface GiftOffer {
  hash: string;
  price: number;
  fiatDecimals: number;
  originalData: string;
  fiatCurrencyId: number;
  paymentMethodId: number;
}

/** GET /rest/v1/gift-cards/unused/{offerHash}?fiatAmount=: free cards of that brand and currency. */
export const fetchUnusedCards = (offerHash: string, fiat: string) =>
  apiGet<GiftCardView[]>(
    `/rest/v1/gift-cards/unused/${encodeURIComponent(offerHash)}?fiatAmount=${encodeURIComponent(fiat)}`,
  );

/** The chosen cards' total in minor units: sums of decimals would drift (0.1 + 0.2). */
export function totalMinor(cards: readonly GiftCardView[], chosen: ReadonlySet<string>, decimals: number): number {
  return cards
    .filter((card) => chosen.has(card.id))
    .reduce((sum, card) => sum + Math.round(card.value * 10 ** decimals), 0);
}

/** The chosen cards add up to the amount to the cent: the trade can start with them at once. */
export function coversExactly(
  cards: readonly GiftCardView[],
  chosen: ReadonlySet<string>,
  fiat: string,
  decimals: number,
): boolean {
  const amount = toMinorUnits(fiat, decimals);
  return chosen.size > 0 && amount !== undefined && totalMinor(cards, chosen, decimals) === amount;
}

/** POST /rest/v1/gift-cards/trade/start. payer_name is left out: no offer asks for one yet. */
export function postGiftTrade(
  offer: GiftOffer,
  fiat: string,
  cardIds: readonly string[],
  cryptoDecimals: number,
): Promise<ApiResult<{ chatUrl: string }>> {
  // The answer's `data` is the trade, whose chatUrl is the answer's own.
  return apiRequest<{ chatUrl: string }>('POST', '/rest/v1/gift-cards/trade/start', {
    offer_hash: offer.hash,
    fiat_currency_id: offer.fiatCurrencyId,
    payment_method_id: offer.paymentMethodId,
    amount_fiat: Number(fiat),
    amount_btc: Number(cryptoForFiat(fiat, offer.price, cryptoDecimals)),
    gift_card_ids: cardIds,
    original_data: offer.originalData,
  });
}

/** /offers/{hash}/gift-code-trade?amount_fiat=…&cards[]=…: where cards that do not add up are completed. */
export function giftCodeTradePath(offerHash: string, fiat: string, cardIds: readonly string[]): string {
  const query = new URLSearchParams({ amount_fiat: fiat });
  for (const id of cardIds) query.append('cards[]', id);
  return `/offers/${encodeURIComponent(offerHash)}/gift-code-trade?${query.toString()}`;
}
