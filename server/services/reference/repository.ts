import { asc, count, eq, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import {
  countries,
  countryPaymentMethods,
  cryptoCurrencies,
  fiatCurrencies,
  locations,
  paymentGroups,
  paymentMethods,
  timezones,
} from '../../../db/schema/index.ts';

// Every statement is prepared once per database here, never in a request path; the service
// calls them through `gated` (db/access.ts), each answering a promise.

export type FiatCurrencyRow = typeof fiatCurrencies.$inferSelect;

/** Fiat and crypto currencies. */
function currencyStatements(db: Db) {
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
  return {
    listCurrencies: () => allCurrencies.all(),
    findCurrency: (code: string) => currencyByCode.get({ code }),
    listCryptoCurrencies: () => allCryptoCurrencies.all(),
  };
}

/** Countries with their popular payment methods, and locations in them. */
function countryStatements(db: Db) {
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
  return {
    listCountries: (limit: number, offset: number) => countryPage.all({ limit, offset }),
    countCountries: () => countryCount.get()?.n ?? 0,
    listCountryPaymentMethods: () => countryMethods.all(),
    searchLocations: (q: string, limit: number) => locationSearch.all({ q, limit }),
  };
}

/** Time zones, payment groups and payment methods. */
function catalogueStatements(db: Db) {
  const allTimezones = db.select().from(timezones).orderBy(asc(timezones.name)).prepare();
  const allPaymentGroups = db.select().from(paymentGroups).orderBy(asc(paymentGroups.id)).prepare();
  // Seed order within a group: the curated list puts the best-known method of each group first.
  const allPaymentMethods = db
    .select({
      id: paymentMethods.id,
      slug: paymentMethods.slug,
      name: paymentMethods.name,
      groupId: paymentMethods.groupId,
      descriptionShort: paymentMethods.descriptionShort,
      isCopyrighted: paymentMethods.isCopyrighted,
      warningText: paymentMethods.warningText,
    })
    .from(paymentMethods)
    .orderBy(asc(paymentMethods.groupId), asc(paymentMethods.id))
    .prepare();
  /** In how many countries each method is among the popular ones (a group's popular methods). */
  const methodCountryCounts = db
    .select({ paymentMethodId: countryPaymentMethods.paymentMethodId, countries: count() })
    .from(countryPaymentMethods)
    .groupBy(countryPaymentMethods.paymentMethodId)
    .prepare();
  return {
    listTimezones: () => allTimezones.all(),
    listPaymentGroups: () => allPaymentGroups.all(),
    listPaymentMethods: () => allPaymentMethods.all(),
    countPaymentMethodCountries: () => methodCountryCounts.all(),
  };
}

export function createReferenceRepository(db: Db) {
  return gated(db, { ...currencyStatements(db), ...countryStatements(db), ...catalogueStatements(db) });
}

export type ReferenceRepository = ReturnType<typeof createReferenceRepository>;
