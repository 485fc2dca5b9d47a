import { describe, expect, it } from 'vitest';
import { countryBlocks } from '../../server/services/offers/country-rules.ts';

// The start gate's country rules (spec section 5; decision 111): the person's own country for the
// offer's allowed list, gray countries and the currency rule; theirs and the request's for
// sanctioned countries and the countries the vendor refuses.

const offer = {
  type: 'sell' as 'buy' | 'sell',
  fiatCurrency: 'EUR',
  blockedCountries: [] as string[],
  allowedCountries: [] as string[],
  requireOfferCurrencyMatchBuyerCountry: false,
};
const person = { countryIso: 'DE' as string | null, requestCountryIso: 'DE' as string | null, isIdVerified: false };
const currencyOf = (iso: string) => ({ DE: 'EUR', US: 'USD', FR: 'EUR', KE: 'KES', IR: 'IRR' })[iso];
const codes = (o: Partial<typeof offer>, p: Partial<typeof person> = {}) =>
  countryBlocks({ ...offer, ...o }, { ...person, ...p }, currencyOf).map((b) => b.code);

describe('countryBlocks', () => {
  it('lets a person through when nothing about their country is in the way', () => {
    expect(codes({})).toEqual([]);
  });

  it('refuses the countries an offer blocks, from settings or from where the request comes', () => {
    expect(codes({ blockedCountries: ['DE'] })).toEqual(['country_not_allowed']);
    expect(codes({ blockedCountries: ['FR'] }, { requestCountryIso: 'FR' })).toEqual(['country_not_allowed']);
    expect(
      countryBlocks({ ...offer, blockedCountries: ['FR'] }, { ...person, requestCountryIso: 'FR' }, currencyOf)[0]
        ?.params,
    ).toEqual({ country: 'FR' });
  });

  it('refuses sanctioned countries either way', () => {
    expect(codes({}, { countryIso: 'IR' })).toEqual(['country_not_allowed']);
    expect(codes({}, { requestCountryIso: 'IR' })).toEqual(['country_not_allowed']);
  });

  it('reads the allowed list against the person’s own country: a traveller trades as at home', () => {
    expect(codes({ allowedCountries: ['DE'] }, { requestCountryIso: 'US' })).toEqual([]);
    expect(codes({ allowedCountries: ['FR'] })).toEqual(['country_not_allowed']);
  });

  it('asks people from gray countries to verify before they sell to a buy offer', () => {
    expect(codes({ type: 'buy' }, { countryIso: 'KE' })).toEqual(['gray_country_id_required']);
    expect(codes({ type: 'buy' }, { countryIso: 'KE', isIdVerified: true })).toEqual([]);
    expect(codes({ type: 'sell' }, { countryIso: 'KE' })).toEqual([]);
  });

  it('requires the offer currency to be the person’s country’s when the offer says so', () => {
    expect(codes({ requireOfferCurrencyMatchBuyerCountry: true })).toEqual([]);
    expect(codes({ requireOfferCurrencyMatchBuyerCountry: true }, { countryIso: 'US' })).toEqual([
      'currency_country_mismatch',
    ]);
    expect(codes({ requireOfferCurrencyMatchBuyerCountry: true }, { countryIso: null })).toEqual([
      'currency_country_mismatch',
    ]);
  });
});
