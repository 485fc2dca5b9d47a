import { getCountrySpecifications, isSEPACountry } from 'ibantools';
import { accountKindOf } from '../../../server/services/banks/checks.ts';
import type { CountryChoice, CurrencyOption } from '../../components/bank-accounts/types.ts';
import type { CountryView, CurrencyView } from '../shared/views/reference.ts';

// The bank accounts page's country choices, made on the server (ibantools' registry stays out of
// the browser): each country with its account kind, currencies and IBAN length, sorted by its name in
// the reader's language. A country whose currency the market does not list cannot hold an account.

export function countryChoices(
  countries: readonly CountryView[],
  currencies: readonly CurrencyView[],
  lang: string,
): CountryChoice[] {
  const byCode = new Map(currencies.map((c) => [c.code, { id: c.id, code: c.code }]));
  const euro = byCode.get('EUR');
  const specs = getCountrySpecifications();
  const choices: CountryChoice[] = [];
  for (const country of countries) {
    const own = byCode.get(country.currency);
    if (!own) continue;
    const kind = accountKindOf(country.iso);
    const options: CurrencyOption[] = [own];
    if (kind === 'iban' && euro && own.code !== 'EUR' && isSEPACountry(country.iso)) options.push(euro);
    choices.push({
      id: country.id,
      iso: country.iso,
      name: country.name,
      kind,
      currencies: options,
      ibanLength: kind === 'iban' ? (specs[country.iso]?.chars ?? null) : null,
    });
  }
  return choices.sort((a, b) => a.name.localeCompare(b.name, lang));
}
