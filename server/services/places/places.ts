import type { DatabaseLike } from '../../../db/database.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { CountryPlace } from '../../../src/lib/shared/views/reference.ts';
import { createGeolocation, type Geolocation } from '../devices/geolocation.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import { createReferenceRepository, type ReferenceRepository } from '../reference/repository.ts';

// Where a person is (issue 19): the country a request comes from, read from its address in the
// offline DB-IP database the device review already uses, and each country's currency and popular
// payment methods. An address no database places (localhost, private networks) or a country
// outside our list reads as DEFAULT_COUNTRY, so every visitor has a country and a currency.

interface CountryEntry {
  id: number;
  iso: string;
  name: string;
  currencyId: number;
  currencyCode: string;
  popularPaymentMethods: { slug: string; name: string }[];
}

export interface PlacesOptions {
  repo: Pick<ReferenceRepository, 'listCountries' | 'listCountryPaymentMethods'>;
  geolocation: Pick<Geolocation, 'lookup'>;
  /** ISO 3166-1 alpha-2 (config DEFAULT_COUNTRY); must be one of the seeded countries. */
  defaultCountry: string;
}

/** Every country there is: reference data changes only with migrations and the seed, so read once. */
async function loadCountries(repo: PlacesOptions['repo']): Promise<Map<string, CountryEntry>> {
  const [rows, methodRows] = await Promise.all([repo.listCountries(1000, 0), repo.listCountryPaymentMethods()]);
  const methods = new Map<number, { slug: string; name: string }[]>();
  for (const m of methodRows) {
    const list = methods.get(m.countryId) ?? [];
    list.push({ slug: m.slug, name: m.name });
    methods.set(m.countryId, list);
  }
  return new Map(
    rows.map((c) => [
      c.iso,
      {
        id: c.id,
        iso: c.iso,
        name: c.name,
        currencyId: c.currencyId,
        currencyCode: c.currencyCode,
        popularPaymentMethods: methods.get(c.id) ?? [],
      },
    ]),
  );
}

export function createPlaces({ repo, geolocation, defaultCountry }: PlacesOptions) {
  let countries: Promise<Map<string, CountryEntry>> | undefined;
  const all = () => {
    countries ??= loadCountries(repo).catch((error: unknown) => {
      // Not cached: the next call tries again (a test database seeded after the services were built).
      countries = undefined;
      throw error;
    });
    return countries;
  };

  return {
    defaultCountry,

    /** The country of a client address: where DB-IP places it when we list that country, else the default. */
    async countryOfAddress(ip: string): Promise<string> {
      const place = await geolocation.lookup(ip);
      if (!place) return defaultCountry;
      return (await all()).has(place.countryCode) ? place.countryCode : defaultCountry;
    },

    /** A country as the current user shows it (spec section 3), in the reader's language. */
    async country(iso: string, locale: Locale): Promise<CountryPlace | undefined> {
      const entry = (await all()).get(iso.toUpperCase());
      if (!entry) return undefined;
      return {
        id: entry.id,
        iso: entry.iso,
        name: localizedCountryName(locale, entry.iso, entry.name),
        currency: entry.currencyCode,
        popularPaymentMethods: entry.popularPaymentMethods,
      };
    },

    /** The table ids of a country and its currency, or undefined for one we do not list. */
    async idsOf(iso: string): Promise<{ countryId: number; currencyId: number } | undefined> {
      const entry = (await all()).get(iso.toUpperCase());
      return entry && { countryId: entry.id, currencyId: entry.currencyId };
    },

    /** The ISO code of a countries table id, or undefined. */
    async isoOfId(id: number): Promise<string | undefined> {
      for (const entry of (await all()).values()) if (entry.id === id) return entry.iso;
      return undefined;
    },
  };
}

export type Places = ReturnType<typeof createPlaces>;

/** The places of one database, with the process's shared address database (GEOIP=off: none). */
export function placesOf(
  db: DatabaseLike,
  config: { GEOIP?: 'on' | 'off' | undefined; DEFAULT_COUNTRY?: string | undefined },
  log: (message: string) => void,
): Places {
  return createPlaces({
    repo: createReferenceRepository(db),
    geolocation: createGeolocation({ enabled: config.GEOIP !== 'off', log }),
    defaultCountry: config.DEFAULT_COUNTRY ?? 'US',
  });
}
