import { describe, expect, it } from 'vitest';
import {
  checkOfferForm,
  compact,
  fieldId,
  fieldRank,
  newOfferForm,
  nextRequirement,
  type OfferForm,
  offerForm,
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

describe('trade rules', () => {
  const receipt = { kind: 'receipt', stage: 'before_paid', optional: false } as const;

  it('asks for terms with gold terms, and for each proof once per step, at most four', () => {
    expect(check(valid({ isGold: true }))).toEqual(['is_gold:offer_gold_needs_terms']);
    expect(check(valid({ isGold: true, terms: '  ' }))).toEqual(['is_gold:offer_gold_needs_terms']);
    expect(check(valid({ isGold: true, terms: 'Own account only.' }))).toEqual([]);
    expect(check(valid({ requirements: [receipt, { ...receipt, optional: true }] }))).toEqual([
      'trade_requirements:offer_requirements_repeated',
    ]);
    expect(check(valid({ requirements: [receipt, { ...receipt, stage: 'before_reveal' }] }))).toEqual([]);
    const five = (['receipt', 'photo_id', 'selfie', 'bank_statement', 'proof_of_address'] as const).map((kind) => ({
      ...receipt,
      kind,
    }));
    expect(check(valid({ requirements: five }))).toEqual(['trade_requirements:offer_requirements_count']);
  });

  it('offers the receipt first, then the documents not yet asked at that step', () => {
    expect(nextRequirement([])).toEqual(receipt);
    expect(nextRequirement([receipt]).kind).toBe('photo_id');
    expect(nextRequirement([receipt], 'before_reveal')).toEqual({ ...receipt, stage: 'before_reveal' });
  });

  it('sends gold terms and proofs, and the skipped warning only with a sell offer', () => {
    const form = valid({ isGold: true, isSkipWarnings: true, requirements: [receipt], terms: 'Own account.' });
    expect(requestBody(form, false)).toMatchObject({
      is_gold: true,
      is_skip_warnings: true,
      trade_requirements: [receipt],
    });
    expect(requestBody({ ...form, type: 'buy' }, false).is_skip_warnings).toBe(false);
  });

  it('starts an edit from the offer’s trade rules', () => {
    const form = offerForm({
      hash: 'abc123XYZ',
      type: 'sell',
      cryptoCurrency: 'BTC',
      fiatCurrency: 'EUR',
      paymentMethodSlug: 'sepa',
      priceType: 'margin',
      margin: 1,
      fiatPricePerCrypto: 90_900,
      fiatLimitMin: 50,
      fiatLimitMax: 500,
      predefinedAmount: [],
      paymentWindowTime: 30,
      paymentMethodLabel: null,
      offerTerms: 'Own account.',
      tags: [],
      requireVerifiedId: false,
      showOnlyTrustedUser: false,
      bond: { isRequired: false },
      requireOfferCurrencyMatchBuyerCountry: false,
      requireMinPastTrades: 0,
      newBuyerMaxFiatLimit: null,
      isPubliclyVisible: true,
      isGold: true,
      isSkipWarnings: true,
      tradeRequirements: [receipt],
      allowedCountries: [],
      blockedCountries: [],
      location: null,
    });
    expect(form).toMatchObject({ isGold: true, isSkipWarnings: true, requirements: [receipt] });
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
