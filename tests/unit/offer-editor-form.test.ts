import { describe, expect, it } from 'vitest';
import {
  checkOfferForm,
  compact,
  fieldId,
  fieldRank,
  newOfferForm,
  type OfferForm,
  requestBody,
} from '../../src/components/offer-editor/form.ts';
import { marginPrice } from '../../src/components/offer-editor/format.ts';

// The offer editor's instant checks must agree with the server's rules
// (server/services/offers/offer-input.ts): same fields, same keys, same bounds.

const valid = (patch: Partial<OfferForm> = {}): OfferForm => ({
  ...newOfferForm('EUR'),
  paymentMethod: 'sepa',
  margin: '2.5',
  fiatMin: '50',
  fiatMax: '1000',
  ...patch,
});
const check = (form: OfferForm, decimals = 2, isCashInPerson = false) =>
  checkOfferForm(form, { decimals, isCashInPerson }).map((i) => `${i.field}:${i.key}`);

describe('offer form checks', () => {
  it('accepts a complete offer', () => {
    expect(check(valid())).toEqual([]);
  });

  it('asks for a currency and a payment method', () => {
    expect(check(valid({ currency: '', paymentMethod: '' }))).toEqual([
      'currency:offer_currency_unknown',
      'payment_method:offer_payment_method_unknown',
    ]);
  });

  it('holds the margin to two decimals inside the shared band', () => {
    expect(check(valid({ margin: '2.555' }))).toEqual(['margin:offer_margin_invalid']);
    expect(check(valid({ margin: '150.01' }))).toEqual(['margin:offer_margin_range']);
    expect(check(valid({ margin: '-50' }))).toEqual([]);
    expect(check(valid({ margin: '-50.01' }))).toEqual(['margin:offer_margin_range']);
  });

  it("reads amounts with the currency's decimals and keeps the limits in order", () => {
    expect(check(valid({ fiatMin: '10.5' }), 0)).toEqual(['fiat_min:offer_amount_invalid']);
    expect(check(valid({ fiatMin: '500', fiatMax: '100' }))).toEqual(['fiat_max:offer_limits_order']);
    expect(check(valid({ priceType: 'fixed', fixedPrice: '0' }))).toEqual(['fixed_price:offer_amount_invalid']);
  });

  it('names each predefined amount by its index, as the server does', () => {
    expect(check(valid({ predefined: ['100', '5000', '12.345'] }))).toEqual([
      'predefined_amounts.1:offer_predefined_limits',
      'predefined_amounts.2:offer_amount_invalid',
    ]);
    const dropped = compact(valid({ predefined: ['  ', '100', ''] }));
    expect(dropped.predefined).toEqual(['100']);
  });

  it('checks the new-buyer limit, tags, past trades, countries and the meeting place', () => {
    expect(check(valid({ newBuyerMax: '20' }))).toEqual(['new_buyer_max_fiat:offer_new_buyer_limit']);
    expect(check(valid({ tags: ['instant', 'cash-only', 'receipt-required', 'no-third-parties'] }))).toEqual([
      'tags:offer_tags_count',
    ]);
    expect(check(valid({ minPastTrades: '1001' }))).toEqual(['require_min_past_trades:offer_min_trades']);
    expect(check(valid({ allowedCountries: ['DE'], blockedCountries: ['DE'] }))).toEqual([
      'blocked_countries:offer_countries_overlap',
    ]);
    expect(check(valid(), 2, true)).toEqual(['location_id:offer_location_required']);
  });
});

describe('offer request body', () => {
  it('sends the snake_case keys of the API, the margin or the fixed price, never both', () => {
    const body = requestBody(valid({ newBuyerMax: ' ', minPastTrades: '' }), false);
    expect(body).toMatchObject({
      type: 'sell',
      crypto_currency_code: 'BTC',
      currency: 'EUR',
      payment_method: 'sepa',
      price_type: 'margin',
      margin: '2.5',
      new_buyer_max_fiat: null,
      require_min_past_trades: 0,
      location_id: null,
    });
    expect(body).not.toHaveProperty('fixed_price');
    const fixed = requestBody(valid({ priceType: 'fixed', fixedPrice: '91000' }), false);
    expect(fixed).toMatchObject({ fixed_price: '91000' });
    expect(fixed).not.toHaveProperty('margin');
  });

  it('sends the meeting place only for cash in person', () => {
    const form = valid({ location: { id: 42, prettyName: 'Lisbon, Portugal' } });
    expect(requestBody(form, true).location_id).toBe(42);
    expect(requestBody(form, false).location_id).toBeNull();
  });
});

describe('field order and ids', () => {
  it('puts fields in page order, list items after their list and before later fields', () => {
    const fields = ['blocked_countries', 'predefined_amounts.2', 'fiat_max', 'predefined_amounts.0', 'currency'];
    expect([...fields].sort((a, b) => fieldRank(a) - fieldRank(b))).toEqual([
      'currency',
      'fiat_max',
      'predefined_amounts.0',
      'predefined_amounts.2',
      'blocked_countries',
    ]);
    expect(fieldId('predefined_amounts.0')).toBe('offer-predefined_amounts-0');
  });
});

describe('margin price', () => {
  it('rounds half up at the currency decimals like the server', () => {
    expect(marginPrice(90_000, 2.5, 2)).toBe(92_250);
    expect(marginPrice(1.005, 0, 2)).toBe(1.01);
    expect(marginPrice(1000, -1.23, 0)).toBe(988);
  });
});
