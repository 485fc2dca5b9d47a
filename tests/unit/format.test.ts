import { describe, expect, it } from 'vitest';
import { fiatCurrencies } from '../../db/seed/data/fiat-currencies.ts';
import { formatCrypto, formatFiat } from '../../src/lib/shared/format.ts';
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

  it('keeps the currency decimals it is given, and crypto with 8', () => {
    expect(formatFiat(1500, 'JPY', 'en', 0)).toBe('¥1,500');
    expect(formatCrypto(0.1, 'BTC', 'en')).toBe('0.10000000 BTC');
  });
});
