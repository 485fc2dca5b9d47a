import { describe, expect, it } from 'vitest';
import { fiatCurrencies } from '../../db/seed/data/fiat-currencies.ts';
import { formatFiat } from '../../src/lib/shared/format.ts';
import { formatCryptoAmount } from '../../src/lib/shared/format-crypto.ts';
import { localeTags } from '../../src/lib/shared/i18n/locales.ts';

// Prices are never ambiguous (issue 19): where currencies share a sign, the sign says which.

/** The currency part of a formatted amount: `CA$` of `CA$1,234.50`, `USD` in Turkish. */
const signOf = (code: string, tag: string) =>
  formatFiat(1234.5, code, tag)
    .replace(/[\d\s.,'\u00a0\u202f\u066b\u066c-]/g, '')
    .trim();

describe('formatFiat', () => {
  it('writes the dollars of different countries differently', () => {
    expect(formatFiat(1234.5, 'USD', 'en')).toBe('$1,234.50');
    expect(formatFiat(1234.5, 'CAD', 'en')).toBe('CA$1,234.50');
    expect(formatFiat(1234.5, 'MXN', 'en')).toBe('MX$1,234.50');
    expect(formatFiat(1234.5, 'AUD', 'en')).toBe('A$1,234.50');
    expect(formatFiat(1234.5, 'ARS', 'en')).toMatch(/^ARS\s1,234\.50$/);
    expect(formatFiat(1234.5, 'EUR', 'de')).toBe('1.234,50\u00a0€');
    // The Turkish rule of spec section 9: the code after the number.
    expect(formatFiat(1234.5, 'USD', 'tr')).toBe('1.234,50 USD');
  });

  it('gives each of the 154 currencies its own sign in every one of the 19 languages', () => {
    for (const tag of Object.values(localeTags)) {
      const owners = new Map<string, string>();
      for (const { code } of fiatCurrencies) {
        const sign = signOf(code, tag);
        expect(sign, `${tag} ${code}`).not.toBe('');
        expect(owners.get(sign), `${tag}: ${code} and ${owners.get(sign)} both read "${sign}"`).toBeUndefined();
        owners.set(sign, code);
      }
    }
  });

  it('keeps the currency decimals it is given', () => {
    expect(formatFiat(1500, 'JPY', 'en', 0)).toBe('¥1,500');
  });
});

describe('formatCryptoAmount', () => {
  it('writes bitcoin with 8 decimals and tether with 6, always, from the exact text', () => {
    expect(formatCryptoAmount('0.0015', 'BTC', 'en')).toBe('0.00150000 BTC');
    expect(formatCryptoAmount('90071992547.40993', 'BTC', 'en')).toBe('90,071,992,547.40993000 BTC');
    expect(formatCryptoAmount('0.123456', 'USDT', 'de')).toBe('0,123456 USDT');
    expect(formatCryptoAmount('1234.5678', 'USDT', 'fr')).toBe('1\u202f234,567800 USDT');
  });

  it('gives every tether amount the same decimals, whatever its own (issue 22: 2, 4 or 6 at random)', () => {
    const amounts = ['12.5', '12.1234', '0.123456', '250', '250.000000'].map((a) =>
      formatCryptoAmount(a, 'USDT', 'en'),
    );
    expect(amounts).toEqual([
      '12.500000 USDT',
      '12.123400 USDT',
      '0.123456 USDT',
      '250.000000 USDT',
      '250.000000 USDT',
    ]);
  });

  it('signs credits and debits for a ledger, zero without a sign', () => {
    expect(formatCryptoAmount('0.015', 'BTC', 'en', { sign: true })).toBe('+0.01500000 BTC');
    expect(formatCryptoAmount('-12.5', 'USDT', 'en', { sign: true })).toBe('-12.500000 USDT');
    expect(formatCryptoAmount('0', 'USDT', 'en', { sign: true })).toBe('0.000000 USDT');
  });
});
