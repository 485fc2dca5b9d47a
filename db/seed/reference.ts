import { count } from 'drizzle-orm';
import { immediate } from '../../server/services/context.ts';
import { foldForSearch } from '../../src/lib/shared/fold-for-search.ts';
import { asDatabase, type Database, type DatabaseLike } from '../database.ts';
import {
  countries,
  countryPaymentMethods,
  cryptoCurrencies,
  fiatCurrencies,
  locations,
  paymentGroups,
  paymentMethods,
  timezones,
} from '../schema/index.ts';
import { insertKeyed, insertMany, moveIdentitiesPastSeededIds } from './bulk.ts';
import { cities } from './data/cities.ts';
import { countries as countrySeeds } from './data/countries.ts';
import { fiatCurrencies as fiatSeeds } from './data/fiat-currencies.ts';
import { paymentGroups as groupSeeds } from './data/payment-groups.ts';
import { paymentMethods as methodSeeds } from './data/payment-methods.ts';

/** The six groups a person can pick in search (spec section 9). */
export const SELECTABLE_GROUP_SLUGS = [
  'bank-transfers',
  'cash-deposits',
  'debitcredit-cards',
  'digital-currencies',
  'gift-cards',
  'online-transfers',
] as const;

function lookup<T>(map: Map<string, T>, key: string, what: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Reference data: unknown ${what} "${key}"`);
  return value;
}

/**
 * ICU still lists some zones under their CLDR names (`Asia/Calcutta`); people and other systems
 * know them by the current IANA names, which ICU accepts as aliases.
 */
const CLDR_TO_IANA: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

export function ianaTimeZones(): string[] {
  const names = Intl.supportedValuesOf('timeZone').map((name) => CLDR_TO_IANA[name] ?? name);
  return [...new Set(names)].sort();
}

export async function hasReferenceData(db: DatabaseLike): Promise<boolean> {
  const database = asDatabase(db);
  const row = await database.get(database.orm.select({ n: count() }).from(fiatCurrencies));
  return (row?.n ?? 0) > 0;
}

/** The crypto and fiat currencies; the fiat ids by code. */
async function seedCurrencies(database: Database): Promise<Map<string, number>> {
  await insertMany(database, cryptoCurrencies, [
    { id: 1, code: 'BTC', name: 'Bitcoin', urlName: 'bitcoin', decimals: 8, isDefault: true, sortOrder: 1 },
    { id: 2, code: 'USDT', name: 'Tether', urlName: 'tether', decimals: 6, isDefault: false, sortOrder: 2 },
  ]);

  const rows = fiatSeeds.map((c) => ({
    code: c.code,
    name: c.name,
    symbol: c.symbol,
    minorUnits: c.minorUnits,
    usdRate: c.usdRate,
    sortOrder: c.order,
    defaultAmount: c.defaultAmount,
  }));
  return insertKeyed(database, fiatCurrencies, 'code', rows);
}

/** The payment groups and methods; the method ids by slug. */
async function seedPaymentMethods(database: Database): Promise<Map<string, number>> {
  const selectable = new Set<string>(SELECTABLE_GROUP_SLUGS);
  const groupIds = new Map<string, number>();
  for (const g of groupSeeds) groupIds.set(g.slug, g.id);
  await insertMany(
    database,
    paymentGroups,
    groupSeeds.map((g) => ({ ...g, isSelectable: selectable.has(g.slug) })),
  );

  const rows = methodSeeds.map((m) => ({
    slug: m.slug,
    name: m.name,
    groupId: lookup(groupIds, m.groupSlug, 'payment group'),
    descriptionShort: m.descriptionShort,
    isCopyrighted: m.isCopyrighted,
    warningText: m.warningText,
    currencies: m.currencies,
  }));
  return insertKeyed(database, paymentMethods, 'slug', rows);
}

/** The countries with their popular payment methods; the country ids by ISO code. */
async function seedCountries(
  database: Database,
  fiatIds: Map<string, number>,
  methodIds: Map<string, number>,
): Promise<Map<string, number>> {
  const rows = countrySeeds.map((c) => ({
    iso: c.iso,
    iso3: c.iso3,
    name: c.name,
    currencyId: lookup(fiatIds, c.currencyCode, 'currency'),
    phoneCode: c.phoneCode,
  }));
  const countryIds = await insertKeyed(database, countries, 'iso', rows);
  await insertMany(
    database,
    countryPaymentMethods,
    countrySeeds.flatMap((c) =>
      c.popularPaymentMethods.map((slug, position) => ({
        countryId: lookup(countryIds, c.iso, 'country'),
        paymentMethodId: lookup(methodIds, slug, 'payment method'),
        position,
      })),
    ),
  );
  return countryIds;
}

/** The cities and the time zones. */
async function seedPlaces(database: Database, countryIds: Map<string, number>): Promise<void> {
  await insertMany(
    database,
    locations,
    cities.map((city) => ({
      countryId: lookup(countryIds, city.countryIso, 'country'),
      cityName: city.city,
      subdivisionName: city.subdivision,
      latitude: city.latitude,
      longitude: city.longitude,
      searchKey: foldForSearch(city.city),
    })),
  );

  // Node's ICU carries the IANA database, so the list matches the runtime that formats times.
  await insertMany(
    database,
    timezones,
    ianaTimeZones().map((name) => ({ name, region: name.split('/')[0] ?? name })),
  );
}

/** Writes every reference table in one transaction; a half-seeded database is never left behind. */
export async function seedReferenceData(db: DatabaseLike): Promise<void> {
  const database = asDatabase(db);
  await immediate(database, async () => {
    const fiatIds = await seedCurrencies(database);
    const methodIds = await seedPaymentMethods(database);
    await seedPlaces(database, await seedCountries(database, fiatIds, methodIds));
    // Their ids are the seed's own (the groups' 1–6 are the selectable ones).
    await moveIdentitiesPastSeededIds(database, ['crypto_currencies', 'payment_groups']);
  });
}
