import { type Locale, localeTags } from '../../../src/lib/shared/i18n/locales.ts';
import type { CountryView, LocationView } from '../../../src/lib/shared/views/reference.ts';
import type { ServiceContext } from '../context.ts';
import type { ReferenceParts } from './deps.ts';
import { localizedCountryName } from './display-names.ts';

// Countries with their popular payment methods, and the location search of the offer forms.

/** More than ISO 3166-1 has: the whole table in one read. */
const ALL_COUNTRIES = 1000;

export async function listCountries(
  { repo }: ReferenceParts,
  _ctx: ServiceContext,
  { locale, limit, offset }: { locale: Locale; limit: number; offset: number },
) {
  const methods = new Map<number, { slug: string; name: string }[]>();
  for (const m of await repo.listCountryPaymentMethods()) {
    const list = methods.get(m.countryId) ?? [];
    list.push({ slug: m.slug, name: m.name });
    methods.set(m.countryId, list);
  }
  // All of them (some 250), named and ordered in the reader's language, then the page: a person
  // looks for "Deutschland" among the D's, and every caller's list is in that order.
  const collator = new Intl.Collator(localeTags[locale]);
  const all: CountryView[] = (await repo.listCountries(ALL_COUNTRIES, 0)).map((c) => ({
    id: c.id,
    iso: c.iso,
    iso3: c.iso3,
    name: localizedCountryName(locale, c.iso, c.name),
    originalName: c.name,
    currency: c.currencyCode,
    phoneCode: c.phoneCode,
    popularPaymentMethods: methods.get(c.id) ?? [],
  }));
  const items = all.sort((a, b) => collator.compare(a.name, b.name)).slice(offset, offset + limit);
  return { items, total: all.length };
}

export async function searchLocations(
  { repo }: ReferenceParts,
  _ctx: ServiceContext,
  { locale, query, limit }: { locale: Locale; query: string; limit: number },
): Promise<LocationView[]> {
  return (await repo.searchLocations(query, limit)).map((l) => {
    const countryName = localizedCountryName(locale, l.countryIso, l.countryName);
    const parts = [l.cityName, l.subdivisionName === l.cityName ? '' : l.subdivisionName, countryName];
    return { ...l, countryName, prettyName: parts.filter(Boolean).join(', ') };
  });
}
