import type { TestApp } from './test-app.ts';

// What bank tests share: reference ids by ISO code, and well-known sample accounts whose IBANs
// and routing numbers are valid (the banks' and standards' own published examples).

export const IBANS = {
  DE: 'DE89370400440532013000', // Commerzbank
  DE2: 'DE02120300000000202051', // Deutsche Kreditbank
  FR: 'FR1420041010050500013M02606', // La Banque Postale
  ES: 'ES9121000418450200051332', // CaixaBank
  NL: 'NL91ABNA0417164300', // ABN AMRO
  GB: 'GB29NWBK60161331926819', // NatWest
  BE: 'BE68539007547034',
} as const;

/** JPMorgan Chase (New York); a valid number the directory does not know (Federal Reserve Bank of Boston). */
export const ROUTING = { chase: '021000021', unknown: '011000015', badChecksum: '021000022' } as const;

export function bankFixtures(t: TestApp) {
  const idOf = async (query: string, value: string) => {
    const row = await t.db.sql.get<{ id: number }>(query, [value]);
    if (!row) throw new Error(`nothing for ${value}`);
    return Number(row.id);
  };
  const countryId = (iso: string) => idOf('SELECT id FROM countries WHERE iso = ?', iso);
  const currencyId = (code: string) => idOf('SELECT id FROM fiat_currencies WHERE code = ?', code);

  /** An IBAN account's payload in the IBAN's country (Germany for what is no IBAN), in EUR unless said. */
  const ibanBody = async (iban: string, overrides: Record<string, unknown> = {}, currency = 'EUR') => ({
    fiat_currency_id: await currencyId(currency),
    holder_name: 'Erika Mustermann',
    is_personal: true,
    country_id: await countryId(/^[a-z]{2}\d\d/i.test(iban) ? iban.slice(0, 2).toUpperCase() : 'DE'),
    sepa: { iban },
    ...overrides,
  });

  const usBody = async (overrides: Record<string, unknown> = {}) => ({
    fiat_currency_id: await currencyId('USD'),
    holder_name: 'John Doe',
    is_personal: true,
    country_id: await countryId('US'),
    account_number: '000123456789',
    routing_number: ROUTING.chase,
    ...overrides,
  });

  /** An international (SWIFT) account in Canada. */
  const swiftBody = async (overrides: Record<string, unknown> = {}) => ({
    fiat_currency_id: await currencyId('CAD'),
    holder_name: 'Jean Tremblay',
    is_personal: false,
    country_id: await countryId('CA'),
    account_number: '1234567',
    swift_code: 'ROYCCAT2',
    swift: { residency: 'Canada', state: 'ON', city: 'Toronto', zip: 'M5J 2J5', address: '200 Bay Street' },
    ...overrides,
  });

  return { countryId, currencyId, ibanBody, usBody, swiftBody };
}
