import { describe, expect, it } from 'vitest';
import { cities } from '../../db/seed/data/cities.ts';
import { countries } from '../../db/seed/data/countries.ts';
import { fiatCurrencies } from '../../db/seed/data/fiat-currencies.ts';
import { paymentGroups } from '../../db/seed/data/payment-groups.ts';
import { paymentMethods } from '../../db/seed/data/payment-methods.ts';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) dups.add(v);
    seen.add(v);
  }
  return [...dups];
}

const currencyCodes = new Set(fiatCurrencies.map((c) => c.code));
const countryIsos = new Set(countries.map((c) => c.iso));
const groupSlugs = new Set(paymentGroups.map((g) => g.slug));
const methodSlugs = new Set(paymentMethods.map((m) => m.slug));

describe('fiat currencies', () => {
  it('lists at least 150 currencies with unique ISO 4217 codes', () => {
    expect(fiatCurrencies.length).toBeGreaterThanOrEqual(150);
    expect(duplicates(fiatCurrencies.map((c) => c.code))).toEqual([]);
    for (const c of fiatCurrencies) expect(c.code).toMatch(/^[A-Z]{3}$/);
  });

  it('leaves out metals, funds, test codes and the SDR', () => {
    for (const code of [
      'XAU',
      'XAG',
      'XPT',
      'XPD',
      'XTS',
      'XXX',
      'XDR',
      'BOV',
      'CLF',
      'COU',
      'MXV',
      'CHE',
      'CHW',
      'USN',
      'UYI',
    ]) {
      expect(currencyCodes.has(code), code).toBe(false);
    }
  });

  it('has valid minor units, rates, amounts, names and symbols', () => {
    for (const c of fiatCurrencies) {
      expect([0, 2, 3], c.code).toContain(c.minorUnits);
      expect(c.usdRate, c.code).toBeGreaterThan(0);
      expect(Number.isFinite(c.usdRate), c.code).toBe(true);
      expect(c.defaultAmount, c.code).toBeGreaterThan(0);
      expect(c.name.length, c.code).toBeGreaterThan(0);
      expect(c.symbol.length, c.code).toBeGreaterThan(0);
    }
  });

  it('uses the ISO 4217 minor units of well-known currencies', () => {
    const minor = new Map(fiatCurrencies.map((c) => [c.code, c.minorUnits]));
    expect(minor.get('USD')).toBe(2);
    expect(minor.get('JPY')).toBe(0);
    expect(minor.get('KRW')).toBe(0);
    expect(minor.get('XOF')).toBe(0);
    expect(minor.get('KWD')).toBe(3);
    expect(minor.get('BHD')).toBe(3);
    expect(minor.get('TND')).toBe(3);
  });

  it('includes the current codes of recently reformed currencies', () => {
    for (const code of ['VES', 'ZWG', 'SLE', 'MRU', 'STN']) expect(currencyCodes.has(code), code).toBe(true);
  });

  it('orders currencies uniquely, with the marketplace leaders first', () => {
    expect(duplicates(fiatCurrencies.map((c) => String(c.order)))).toEqual([]);
    const byOrder = [...fiatCurrencies].sort((a, b) => a.order - b.order).map((c) => c.code);
    expect(byOrder.slice(0, 14)).toEqual([
      'USD',
      'EUR',
      'GBP',
      'NGN',
      'INR',
      'CAD',
      'AUD',
      'KES',
      'GHS',
      'BRL',
      'ZAR',
      'CNY',
      'ARS',
      'VES',
    ]);
    const usd = fiatCurrencies.find((c) => c.code === 'USD');
    expect(usd?.usdRate).toBe(1);
  });
});

describe('countries', () => {
  it('lists all 249 ISO 3166-1 entries with unique, well-formed codes', () => {
    expect(countries).toHaveLength(249);
    expect(duplicates(countries.map((c) => c.iso))).toEqual([]);
    expect(duplicates(countries.map((c) => c.iso3))).toEqual([]);
    expect(duplicates(countries.map((c) => c.name))).toEqual([]);
    for (const c of countries) {
      expect(c.iso).toMatch(/^[A-Z]{2}$/);
      expect(c.iso3).toMatch(/^[A-Z]{3}$/);
      expect(c.phoneCode, c.iso).toMatch(/^[0-9]{1,4}$/);
      expect(c.name.length, c.iso).toBeGreaterThan(0);
    }
  });

  it('uses a currency that exists in the fiat list', () => {
    for (const c of countries) expect(currencyCodes.has(c.currencyCode), `${c.iso} ${c.currencyCode}`).toBe(true);
  });

  it('names 3–6 distinct, existing popular payment methods', () => {
    for (const c of countries) {
      expect(c.popularPaymentMethods.length, c.iso).toBeGreaterThanOrEqual(3);
      expect(c.popularPaymentMethods.length, c.iso).toBeLessThanOrEqual(6);
      expect(duplicates(c.popularPaymentMethods), c.iso).toEqual([]);
      for (const slug of c.popularPaymentMethods) expect(methodSlugs.has(slug), `${c.iso} ${slug}`).toBe(true);
    }
  });

  it('maps well-known countries correctly', () => {
    const byIso = new Map(countries.map((c) => [c.iso, c]));
    expect(byIso.get('NG')?.currencyCode).toBe('NGN');
    expect(byIso.get('NG')?.phoneCode).toBe('234');
    expect(byIso.get('US')?.iso3).toBe('USA');
    expect(byIso.get('GB')?.iso3).toBe('GBR');
    expect(byIso.get('EC')?.currencyCode).toBe('USD');
    expect(byIso.get('IN')?.popularPaymentMethods).toContain('upi');
    expect(byIso.get('KE')?.popularPaymentMethods).toContain('m-pesa');
    expect(byIso.get('BR')?.popularPaymentMethods).toContain('pix');
  });
});

describe('cities', () => {
  it('lists at least 300 cities in known countries', () => {
    expect(cities.length).toBeGreaterThanOrEqual(300);
    for (const c of cities) expect(countryIsos.has(c.countryIso), `${c.city} ${c.countryIso}`).toBe(true);
  });

  it('has no duplicate city within a country', () => {
    expect(duplicates(cities.map((c) => `${c.countryIso}/${c.city}`))).toEqual([]);
  });

  it('has names and coordinates in range', () => {
    for (const c of cities) {
      expect(c.city.length).toBeGreaterThan(0);
      expect(c.subdivision.length, c.city).toBeGreaterThan(0);
      expect(c.latitude, c.city).toBeGreaterThanOrEqual(-90);
      expect(c.latitude, c.city).toBeLessThanOrEqual(90);
      expect(c.longitude, c.city).toBeGreaterThanOrEqual(-180);
      expect(c.longitude, c.city).toBeLessThanOrEqual(180);
    }
  });
});

describe('payment groups', () => {
  it('starts with the six selectable groups, in order', () => {
    expect(paymentGroups.slice(0, 6).map((g) => [g.id, g.slug])).toEqual([
      [1, 'bank-transfers'],
      [2, 'cash-deposits'],
      [3, 'debitcredit-cards'],
      [4, 'digital-currencies'],
      [5, 'gift-cards'],
      [6, 'online-transfers'],
    ]);
  });

  it('has unique ids and slugs and filled-in texts', () => {
    expect(duplicates(paymentGroups.map((g) => String(g.id)))).toEqual([]);
    expect(duplicates(paymentGroups.map((g) => g.slug))).toEqual([]);
    for (const g of paymentGroups) {
      expect(g.slug).toMatch(SLUG);
      expect(g.name.length).toBeGreaterThan(0);
      expect(g.description.length).toBeGreaterThan(0);
      expect(g.sellDescription.length).toBeGreaterThan(0);
    }
  });
});

describe('payment methods', () => {
  it('lists at least 120 methods with unique, well-formed slugs', () => {
    expect(paymentMethods.length).toBeGreaterThanOrEqual(120);
    expect(duplicates(paymentMethods.map((m) => m.slug))).toEqual([]);
    for (const m of paymentMethods) expect(m.slug).toMatch(SLUG);
  });

  it('belongs to a known group and uses known currencies', () => {
    for (const m of paymentMethods) {
      expect(groupSlugs.has(m.groupSlug), `${m.slug} ${m.groupSlug}`).toBe(true);
      expect(duplicates(m.currencies), m.slug).toEqual([]);
      for (const code of m.currencies) expect(currencyCodes.has(code), `${m.slug} ${code}`).toBe(true);
    }
  });

  it('has a name and description, and a non-empty warning when there is one', () => {
    for (const m of paymentMethods) {
      expect(m.name.length, m.slug).toBeGreaterThan(0);
      expect(m.descriptionShort.length, m.slug).toBeGreaterThan(0);
      if (m.warningText !== null) expect(m.warningText.length, m.slug).toBeGreaterThan(0);
    }
  });

  it('warns about chargeback-prone and scam-prone methods', () => {
    const bySlug = new Map(paymentMethods.map((m) => [m.slug, m]));
    for (const slug of [
      'paypal',
      'credit-card',
      'debit-card',
      'cash-app',
      'venmo',
      'zelle',
      'western-union',
      'moneygram',
      'cash-by-mail',
    ]) {
      expect(bySlug.get(slug)?.warningText, slug).toBeTruthy();
    }
    for (const m of paymentMethods.filter((x) => x.groupSlug === 'gift-cards')) {
      expect(m.isCopyrighted, m.slug).toBe(true);
      expect(m.warningText, m.slug).toBeTruthy();
    }
  });

  it('gives every group at least one method', () => {
    for (const g of paymentGroups) {
      expect(
        paymentMethods.some((m) => m.groupSlug === g.slug),
        g.slug,
      ).toBe(true);
    }
  });
});
