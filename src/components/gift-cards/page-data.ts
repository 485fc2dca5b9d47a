import type { CurrencyView, PaymentGroupView } from '../../lib/shared/views/reference.ts';
import type { Brand, CurrencyChoice } from './types.ts';

// What the gift-card pages hand the card form from the reference API: the brands (payment methods
// of the group `gift-cards`) and the currencies a card can be saved in.

export const GIFT_CARD_GROUP = 'gift-cards';

export function brandsOf(groups: readonly PaymentGroupView[]): Brand[] {
  const group = groups.find((g) => g.slug === GIFT_CARD_GROUP);
  return (group?.methods ?? [])
    .map((method) => ({ id: method.id, name: method.name, currencies: method.currencies }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export const currencyChoice = (c: Pick<CurrencyView, 'id' | 'code' | 'name' | 'minorUnits'>): CurrencyChoice => ({
  id: c.id,
  code: c.code,
  name: c.name,
  decimals: c.minorUnits,
});

export function currencyChoices(currencies: readonly CurrencyView[]): CurrencyChoice[] {
  return currencies.map(currencyChoice).sort((a, b) => a.code.localeCompare(b.code, 'en'));
}
