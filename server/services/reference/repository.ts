import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  countries,
  countryPaymentMethods,
  cryptoCurrencies,
  fiatCurrencies,
  locations,
  paymentMethods,
  timezones,
} from '../../../db/schema/index.ts';

// Every statement is prepared once per database here, never in a request path.

export type FiatCurrencyRow = typeof fiatCurrencies.$inferSelect;

export function createReferenceRepository(db: Db) {
  const allCurrencies = db
    .select()
    .from(fiatCurrencies)
    .orderBy(asc(fiatCurrencies.sortOrder), asc(fiatCurrencies.code))
    .prepare();
  const currencyByCode = db
    .select()
    .from(fiatCurrencies)
    .where(eq(fiatCurrencies.code, sql.placeholder('code')))
    .prepare();
  const allCryptoCurrencies = db.select().from(cryptoCurrencies).orderBy(asc(cryptoCurrencies.sortOrder)).prepare();
  const countryPage = db
    .select({
      id: countries.id,
      iso: countries.iso,
      iso3: countries.iso3,
      name: countries.name,
      phoneCode: countries.phoneCode,
      currencyCode: fiatCurrencies.code,
    })
    .from(countries)
    .innerJoin(fiatCurrencies, eq(fiatCurrencies.id, countries.currencyId))
    .orderBy(asc(countries.name))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare();
  const countryCount = db.select({ n: count() }).from(countries).prepare();
  const countryMethods = db
    .select({
      countryId: countryPaymentMethods.countryId,
      slug: paymentMethods.slug,
      name: paymentMethods.name,
    })
    .from(countryPaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, countryPaymentMethods.paymentMethodId))
    .orderBy(asc(countryPaymentMethods.countryId), asc(countryPaymentMethods.position))
    .prepare();
  // A few thousand rows at most: a scan with instr() finds infixes ("paulo") too, and the
  // ORDER BY puts prefix matches first.
  const locationSearch = db
    .select({
      id: locations.id,
      countryId: locations.countryId,
      countryIso: countries.iso,
      countryName: countries.name,
      cityName: locations.cityName,
      subdivisionName: locations.subdivisionName,
    })
    .from(locations)
    .innerJoin(countries, eq(countries.id, locations.countryId))
    .where(sql`instr(${locations.searchKey}, ${sql.placeholder('q')}) > 0`)
    .orderBy(sql`instr(${locations.searchKey}, ${sql.placeholder('q')}) = 1 DESC`, asc(locations.cityName))
    .limit(sql.placeholder('limit'))
    .prepare();
  const allTimezones = db.select().from(timezones).orderBy(asc(timezones.name)).prepare();

  return {
    listCurrencies: () => allCurrencies.all(),
    findCurrency: (code: string) => currencyByCode.get({ code }),
    listCryptoCurrencies: () => allCryptoCurrencies.all(),
    listCountries: (limit: number, offset: number) => countryPage.all({ limit, offset }),
    countCountries: () => countryCount.get()?.n ?? 0,
    listCountryPaymentMethods: () => countryMethods.all(),
    searchLocations: (q: string, limit: number) => locationSearch.all({ q, limit }),
    listTimezones: () => allTimezones.all(),
  };
}

export type ReferenceRepository = ReturnType<typeof createReferenceRepository>;
