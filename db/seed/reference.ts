import { count } from 'drizzle-orm';
import { immediate } from '../../server/services/context.ts';
import { foldForSearch } from '../../src/lib/shared/fold-for-search.ts';
import { access } from '../access.ts';
import type { Db } from '../client.ts';
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

export async function hasReferenceData(db: Db): Promise<boolean> {
  const [row] = await access(db, () => db.select({ n: count() }).from(fiatCurrencies).all());
  return (row?.n ?? 0) > 0;
}

/** The crypto and fiat currencies; the fiat ids by code. */
function seedCurrencies(db: Db): Map<string, number> {
  db.insert(cryptoCurrencies)
    .values([
      { id: 1, code: 'BTC', name: 'Bitcoin', urlName: 'bitcoin', decimals: 8, isDefault: true, sortOrder: 1 },
      { id: 2, code: 'USDT', name: 'Tether', urlName: 'tether', decimals: 6, isDefault: false, sortOrder: 2 },
    ])
    .run();

  const fiatIds = new Map<string, number>();
  for (const c of fiatSeeds) {
    const row = db
      .insert(fiatCurrencies)
      .values({
        code: c.code,
        name: c.name,
        symbol: c.symbol,
        minorUnits: c.minorUnits,
        usdRate: c.usdRate,
        sortOrder: c.order,
        defaultAmount: c.defaultAmount,
      })
      .returning({ id: fiatCurrencies.id })
      .get();
    fiatIds.set(c.code, row.id);
  }
  return fiatIds;
}

/** The payment groups and methods; the method ids by slug. */
function seedPaymentMethods(db: Db): Map<string, number> {
  const selectable = new Set<string>(SELECTABLE_GROUP_SLUGS);
  const groupIds = new Map<string, number>();
  for (const g of groupSeeds) {
    db.insert(paymentGroups)
      .values({ ...g, isSelectable: selectable.has(g.slug) })
      .run();
    groupIds.set(g.slug, g.id);
  }

  const methodIds = new Map<string, number>();
  for (const m of methodSeeds) {
    const row = db
      .insert(paymentMethods)
      .values({
        slug: m.slug,
        name: m.name,
        groupId: lookup(groupIds, m.groupSlug, 'payment group'),
        descriptionShort: m.descriptionShort,
        isCopyrighted: m.isCopyrighted,
        warningText: m.warningText,
        currencies: m.currencies,
      })
      .returning({ id: paymentMethods.id })
      .get();
    methodIds.set(m.slug, row.id);
  }
  return methodIds;
}

/** The countries with their popular payment methods; the country ids by ISO code. */
function seedCountries(db: Db, fiatIds: Map<string, number>, methodIds: Map<string, number>): Map<string, number> {
  const countryIds = new Map<string, number>();
  for (const c of countrySeeds) {
    const row = db
      .insert(countries)
      .values({
        iso: c.iso,
        iso3: c.iso3,
        name: c.name,
        currencyId: lookup(fiatIds, c.currencyCode, 'currency'),
        phoneCode: c.phoneCode,
      })
      .returning({ id: countries.id })
      .get();
    countryIds.set(c.iso, row.id);
    c.popularPaymentMethods.forEach((slug, position) => {
      db.insert(countryPaymentMethods)
        .values({
          countryId: row.id,
          paymentMethodId: lookup(methodIds, slug, 'payment method'),
          position,
        })
        .run();
    });
  }
  return countryIds;
}

/** The cities and the time zones. */
function seedPlaces(db: Db, countryIds: Map<string, number>): void {
  for (const city of cities) {
    db.insert(locations)
      .values({
        countryId: lookup(countryIds, city.countryIso, 'country'),
        cityName: city.city,
        subdivisionName: city.subdivision,
        latitude: city.latitude,
        longitude: city.longitude,
        searchKey: foldForSearch(city.city),
      })
      .run();
  }

  // Node's ICU carries the IANA database, so the list matches the runtime that formats times.
  for (const name of ianaTimeZones()) {
    db.insert(timezones)
      .values({ name, region: name.split('/')[0] ?? name })
      .run();
  }
}

/** Writes every reference table in one transaction; a half-seeded database is never left behind. */
export async function seedReferenceData(db: Db): Promise<void> {
  await immediate(db, () => {
    const fiatIds = seedCurrencies(db);
    const methodIds = seedPaymentMethods(db);
    seedPlaces(db, seedCountries(db, fiatIds, methodIds));
  });
}
