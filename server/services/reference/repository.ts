import { asc, count, eq, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
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

// Every statement is prepared once per database here, never in a request path; each method
// answers a promise.

export type FiatCurrencyRow = typeof fiatCurrencies.$inferSelect;

/** Fiat and crypto currencies. */
function currencyStatements(database: Database) {
  const { orm } = database;
  const allCurrencies = database.prepare(
    orm.select().from(fiatCurrencies).orderBy(asc(fiatCurrencies.sortOrder), asc(fiatCurrencies.code)),
  );
  const currencyByCode = database.prepare(
    orm
      .select()
      .from(fiatCurrencies)
      .where(eq(fiatCurrencies.code, sql.placeholder('code'))),
  );
  const allCryptoCurrencies = database.prepare(
    orm.select().from(cryptoCurrencies).orderBy(asc(cryptoCurrencies.sortOrder)),
  );
  return {
    listCurrencies: () => allCurrencies.all(),
    findCurrency: (code: string) => currencyByCode.get({ code }),
    listCryptoCurrencies: () => allCryptoCurrencies.all(),
  };
}

/** Countries with their popular payment methods, and locations in them. */
function countryStatements(database: Database) {
  const { orm } = database;
  const countryPage = database.prepare(
    orm
      .select({
        id: countries.id,
        iso: countries.iso,
        iso3: countries.iso3,
        name: countries.name,
        phoneCode: countries.phoneCode,
        currencyId: countries.currencyId,
        currencyCode: fiatCurrencies.code,
      })
      .from(countries)
      .innerJoin(fiatCurrencies, eq(fiatCurrencies.id, countries.currencyId))
      .orderBy(asc(countries.name))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  );
  const countryMethods = database.prepare(
    orm
      .select({
        countryId: countryPaymentMethods.countryId,
        slug: paymentMethods.slug,
        name: paymentMethods.name,
      })
      .from(countryPaymentMethods)
      .innerJoin(paymentMethods, eq(paymentMethods.id, countryPaymentMethods.paymentMethodId))
      .orderBy(asc(countryPaymentMethods.countryId), asc(countryPaymentMethods.position)),
  );
  // A few thousand rows at most: a scan with LIKE '%q%' finds infixes ("paulo") too, and the
  // ORDER BY puts prefix matches first. Both the key and the query are folded to lower case
  // (foldForSearch), so LIKE matches the same on both engines; `%`, `_` and `\` in the query
  // are escaped to mean themselves.
  const locationSearch = database.prepare(
    orm
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
      .where(sql`${locations.searchKey} LIKE ${sql.placeholder('infix')} ESCAPE '\\'`)
      .orderBy(
        sql`CASE WHEN ${locations.searchKey} LIKE ${sql.placeholder('prefix')} ESCAPE '\\' THEN 0 ELSE 1 END`,
        asc(locations.cityName),
      )
      .limit(sql.placeholder('limit')),
  );
  return {
    listCountries: (limit: number, offset: number) => countryPage.all({ limit, offset }),
    listCountryPaymentMethods: () => countryMethods.all(),
    searchLocations: (q: string, limit: number) => {
      const literal = q.replace(/[\\%_]/g, (c) => `\\${c}`);
      return locationSearch.all({ infix: `%${literal}%`, prefix: `${literal}%`, limit });
    },
  };
}

/** Time zones, payment groups and payment methods. */
function catalogueStatements(database: Database) {
  const { orm } = database;
  const allTimezones = database.prepare(orm.select().from(timezones).orderBy(asc(timezones.name)));
  const allPaymentGroups = database.prepare(orm.select().from(paymentGroups).orderBy(asc(paymentGroups.id)));
  // Seed order within a group: the curated list puts the best-known method of each group first.
  const allPaymentMethods = database.prepare(
    orm
      .select({
        id: paymentMethods.id,
        slug: paymentMethods.slug,
        name: paymentMethods.name,
        groupId: paymentMethods.groupId,
        descriptionShort: paymentMethods.descriptionShort,
        isCopyrighted: paymentMethods.isCopyrighted,
        warningText: paymentMethods.warningText,
        currencies: paymentMethods.currencies,
      })
      .from(paymentMethods)
      .orderBy(asc(paymentMethods.groupId), asc(paymentMethods.id)),
  );
  /** In how many countries each method is among the popular ones (a group's popular methods). */
  const methodCountryCounts = database.prepare(
    orm
      .select({ paymentMethodId: countryPaymentMethods.paymentMethodId, countries: count() })
      .from(countryPaymentMethods)
      .groupBy(countryPaymentMethods.paymentMethodId),
  );
  return {
    listTimezones: () => allTimezones.all(),
    listPaymentGroups: () => allPaymentGroups.all(),
    listPaymentMethods: () => allPaymentMethods.all(),
    countPaymentMethodCountries: () => methodCountryCounts.all(),
  };
}

export function createReferenceRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return { ...currencyStatements(database), ...countryStatements(database), ...catalogueStatements(database) };
}

export type ReferenceRepository = ReturnType<typeof createReferenceRepository>;
