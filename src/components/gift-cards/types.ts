import { toMinorUnits } from '../../lib/shared/money.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';

// What the gift-card pages hand their islands, and the small rules both pages share: which brands
// a currency can hold, and card totals counted in minor units (sums of decimals would drift).

/** A gift-card brand: a payment method of the group `gift-cards`. */
export interface Brand {
  id: number;
  name: string;
  /** ISO 4217 codes the brand is sold in; empty means any (payment_methods.currencies). */
  currencies: string[];
}

export interface CurrencyChoice {
  id: number;
  code: string;
  name: string;
  /** Minor-unit digits (2, or 0 for JPY, 3 for KWD). */
  decimals: number;
}

/** The form's choices: every brand and currency, or the one brand and currency a trade page fixes. */
export type CardFormChoices =
  | { kind: 'free'; brands: Brand[]; currencies: CurrencyChoice[]; defaultCurrencyId: number }
  | { kind: 'fixed'; brand: { id: number; name: string }; currency: CurrencyChoice };

/** The brands a card of `currencyCode` can be. */
export function brandsSoldIn(brands: readonly Brand[], currencyCode: string | undefined): Brand[] {
  if (!currencyCode) return [...brands];
  return brands.filter((brand) => brand.currencies.length === 0 || brand.currencies.includes(currencyCode));
}

/** The cards' total in minor units. */
export function cardsTotalMinor(cards: readonly GiftCardView[], decimals: number): number {
  return cards.reduce((sum, card) => sum + Math.round(card.value * 10 ** decimals), 0);
}

/** An amount typed as text in minor units, or undefined when it is not an amount above zero. */
export function amountMinor(text: string, decimals: number): number | undefined {
  const minor = toMinorUnits(text, decimals);
  return minor !== undefined && minor > 0 ? minor : undefined;
}
