import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import {
  countries,
  cryptoCurrencies,
  fiatCurrencies,
  locations,
  paymentGroups,
  paymentMethods,
} from '../../../db/schema/index.ts';

// The reference rows an offer points at, by the names clients use (codes, slugs, ISO codes).
// Reference data changes only through migrations and the seed, so it is read once per process
// and every search and form resolves its names in memory (loaded once, asynchronously; the
// offers service waits for it on its first use).

export interface CatalogueCurrency {
  id: number;
  code: string;
  minorUnits: number;
}
export interface CatalogueCrypto {
  id: number;
  code: 'BTC' | 'USDT';
  urlName: string;
  decimals: number;
}
export interface CatalogueMethod {
  id: number;
  slug: string;
  name: string;
  groupId: number;
  groupSlug: string;
}
export interface CatalogueGroup {
  id: number;
  slug: string;
  isSelectable: boolean;
}
export interface CatalogueLocation {
  id: number;
  countryIso: string;
  latitude: number;
  longitude: number;
}

export interface OffersCatalogue {
  currencyByCode(code: string): CatalogueCurrency | undefined;
  cryptoById(id: number): CatalogueCrypto | undefined;
  cryptoByCode(code: string): CatalogueCrypto | undefined;
  methodBySlug(slug: string): CatalogueMethod | undefined;
  groupBySlug(slug: string): CatalogueGroup | undefined;
  location(id: number): CatalogueLocation | undefined;
  isCountry(iso: string): boolean;
  /** The fiat currency of a country (ISO 3166 alpha-2), for the currency-must-match rule. */
  countryCurrency(iso: string): string | undefined;
}

export async function loadOffersCatalogue(db: DatabaseLike): Promise<OffersCatalogue> {
  const database = asDatabase(db);
  const { orm } = database;
  const [currencyRows, cryptos, groups, methodRows, countryRows, locationRows] = await Promise.all([
    database.all(
      orm
        .select({ id: fiatCurrencies.id, code: fiatCurrencies.code, minorUnits: fiatCurrencies.minorUnits })
        .from(fiatCurrencies),
    ),
    database.all(
      orm
        .select({
          id: cryptoCurrencies.id,
          code: cryptoCurrencies.code,
          urlName: cryptoCurrencies.urlName,
          decimals: cryptoCurrencies.decimals,
        })
        .from(cryptoCurrencies),
    ) as Promise<CatalogueCrypto[]>,
    database.all(
      orm
        .select({ id: paymentGroups.id, slug: paymentGroups.slug, isSelectable: paymentGroups.isSelectable })
        .from(paymentGroups),
    ),
    database.all(
      orm
        .select({
          id: paymentMethods.id,
          slug: paymentMethods.slug,
          name: paymentMethods.name,
          groupId: paymentMethods.groupId,
        })
        .from(paymentMethods),
    ),
    database.all(
      orm.select({ id: countries.id, iso: countries.iso, currencyId: countries.currencyId }).from(countries),
    ),
    database.all(
      orm
        .select({
          id: locations.id,
          countryId: locations.countryId,
          latitude: locations.latitude,
          longitude: locations.longitude,
        })
        .from(locations),
    ),
  ]);
  const currencies = new Map(currencyRows.map((c) => [c.code, c]));
  const currencyCodeById = new Map([...currencies.values()].map((c) => [c.id, c.code]));
  const groupSlugById = new Map(groups.map((g) => [g.id, g.slug]));
  const methods = new Map(methodRows.map((m) => [m.slug, { ...m, groupSlug: groupSlugById.get(m.groupId) ?? '' }]));
  const countryIsoById = new Map(countryRows.map((c) => [c.id, c.iso]));
  const countryCurrencies = new Map(countryRows.map((c) => [c.iso, currencyCodeById.get(c.currencyId)]));
  const places = new Map(
    locationRows.map((l) => [
      l.id,
      { id: l.id, countryIso: countryIsoById.get(l.countryId) ?? '', latitude: l.latitude, longitude: l.longitude },
    ]),
  );
  const groupsBySlug = new Map(groups.map((g) => [g.slug, g]));

  return {
    currencyByCode: (code) => currencies.get(code.toUpperCase()),
    cryptoById: (id) => cryptos.find((c) => c.id === id),
    cryptoByCode: (code) => cryptos.find((c) => c.code === code.toUpperCase()),
    methodBySlug: (slug) => methods.get(slug),
    groupBySlug: (slug) => groupsBySlug.get(slug),
    location: (id) => places.get(id),
    isCountry: (iso) => countryCurrencies.has(iso.toUpperCase()),
    countryCurrency: (iso) => countryCurrencies.get(iso.toUpperCase()),
  };
}
