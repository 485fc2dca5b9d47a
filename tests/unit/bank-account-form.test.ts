import { describe, expect, it } from 'vitest';
import { emptyValues, missingFields, payloadOf } from '../../src/components/bank-accounts/account-values.ts';
import { countryChoices } from '../../src/lib/server/bank-account-countries.ts';
import type { CountryView, CurrencyView } from '../../src/lib/shared/views/reference.ts';

// The bank account form's pure parts (src/components/bank-accounts/account-values.ts) and the
// page's country choices (src/lib/server/bank-account-countries.ts): which fields a country's kind
// asks for, what is sent, and which currencies each country offers.

const t = (key: string) => `<${key}>`;

const country = (id: number, iso: string, name: string, currency: string) =>
  ({ id, iso, iso3: '', name, originalName: name, currency, phoneCode: '', popularPaymentMethods: [] }) as CountryView;
const currency = (id: number, code: string) => ({ id, code }) as CurrencyView;

const currencies = [currency(1, 'USD'), currency(2, 'EUR'), currency(3, 'PLN'), currency(4, 'JPY')];
const countries = [
  country(10, 'US', 'United States', 'USD'),
  country(11, 'DE', 'Germany', 'EUR'),
  country(12, 'PL', 'Poland', 'PLN'),
  country(13, 'JP', 'Japan', 'JPY'),
  country(14, 'XK', 'Nowhere', 'XXX'),
];

describe('countryChoices', () => {
  const choices = countryChoices(countries, currencies, 'en');

  it('names the kind of each country and sorts by name; a currency the market lacks drops the country', () => {
    expect(choices.map((c) => [c.name, c.kind])).toEqual([
      ['Germany', 'iban'],
      ['Japan', 'swift'],
      ['Poland', 'iban'],
      ['United States', 'aba'],
    ]);
  });

  it('offers EUR besides the own currency only in SEPA countries that keep their own', () => {
    const codes = (iso: string) => choices.find((c) => c.iso === iso)?.currencies.map((c) => c.code);
    expect(codes('PL')).toEqual(['PLN', 'EUR']);
    expect(codes('DE')).toEqual(['EUR']);
    expect(codes('JP')).toEqual(['JPY']);
    expect(codes('US')).toEqual(['USD']);
  });

  it('knows the IBAN length of IBAN countries only', () => {
    expect(choices.find((c) => c.iso === 'DE')?.ibanLength).toBe(22);
    expect(choices.find((c) => c.iso === 'PL')?.ibanLength).toBe(28);
    expect(choices.find((c) => c.iso === 'US')?.ibanLength).toBeNull();
  });
});

describe('missingFields', () => {
  const blank = emptyValues(undefined);

  it("names an empty form's required fields with the server's messages, per kind", () => {
    expect(missingFields('iban', blank, false, t)).toEqual({
      holder_name: '<errors.js.bank_transfers.error_empty_holder>',
      'sepa.iban': '<errors.required>',
    });
    expect(missingFields('aba', blank, false, t)).toEqual({
      holder_name: '<errors.js.bank_transfers.error_empty_holder>',
      account_number: '<errors.js.bank_transfers.error_empty_account_number>',
      routing_number: '<errors.js.bank_transfers.error_empty_routing_number>',
    });
    expect(Object.keys(missingFields('swift', blank, false, t)).sort()).toEqual([
      'account_number',
      'holder_name',
      'swift.address',
      'swift.city',
      'swift_code',
    ]);
  });

  it('asks for the bank only where it is required and not chosen', () => {
    const filled = { ...blank, holderName: 'A', accountNumber: '1234', routingNumber: '123456780' };
    expect(missingFields('aba', filled, true, t)).toEqual({ bank_id: '<errors.js.bank_transfers.bank_is_required>' });
    expect(missingFields('aba', { ...filled, bankId: 'US-CHASUS33' }, true, t)).toEqual({});
    expect(missingFields('aba', filled, false, t)).toEqual({});
  });

  it('takes spaces alone for empty', () => {
    expect(missingFields('iban', { ...blank, holderName: '  ', iban: ' ' }, false, t)).toHaveProperty('sepa.iban');
  });
});

describe('payloadOf', () => {
  const values = {
    ...emptyValues(undefined),
    countryId: 11,
    currencyId: 2,
    holderName: ' Jane ',
    iban: 'de89 3704 0044 0532 0130 00',
    accountNumber: '999',
    routingNumber: '021 000 021',
    bankId: 'DE-37040044',
    swiftCode: 'COBADEFFXXX',
    city: 'Berlin',
  };

  it('sends an IBAN account its compact IBAN and nothing of the other kinds', () => {
    expect(payloadOf('iban', values, false)).toEqual({
      country_id: 11,
      fiat_currency_id: 2,
      holder_name: 'Jane',
      is_personal: true,
      sepa: { iban: 'DE89370400440532013000' },
    });
  });

  it('sends the chosen bank only where the bank was a choice', () => {
    expect(payloadOf('aba', values, true)).toMatchObject({
      account_number: '999',
      routing_number: '021000021',
      bank_id: 'DE-37040044',
    });
    expect(payloadOf('aba', values, false)).not.toHaveProperty('bank_id');
  });

  it('sends a SWIFT account its code and the bank address group', () => {
    expect(payloadOf('swift', values, false)).toMatchObject({
      account_number: '999',
      swift_code: 'COBADEFFXXX',
      swift: { city: 'Berlin', address: '', state: '', zip: '', residency: '' },
    });
  });
});
