import { describe, expect, it } from 'vitest';
import {
  btcToFiat,
  calculatorUrl,
  chartStats,
  convert,
  fiatToBtc,
  INITIAL_BTC,
  initialAmounts,
  isAmountText,
  pairCode,
  parseAmount,
  rateFromUsd,
  searchCurrencies,
  sparklinePath,
} from '../../src/components/calculator/convert.ts';

// Spec section 5: fiat → bitcoin is amount ÷ rate with 8 decimals, bitcoin → fiat is amount × rate
// with 2 decimals, empty counts as 0, the first amount is 1 BTC; amounts are digits with one point.

describe('amount text', () => {
  it('accepts digits with at most one decimal point, or nothing', () => {
    for (const ok of ['', '0', '1', '12345', '0.5', '.5', '5.', '1.23456789']) expect(isAmountText(ok), ok).toBe(true);
    for (const bad of ['a', '1a', '1.2.3', '-1', '+1', '1e5', '1,5', ' 1', '1 000', '..', 'Infinity', 'NaN']) {
      expect(isAmountText(bad), bad).toBe(false);
    }
  });

  it('reads empty, a lone point and invalid text as 0', () => {
    expect(parseAmount('')).toBe(0);
    expect(parseAmount('.')).toBe(0);
    expect(parseAmount('abc')).toBe(0);
    expect(parseAmount('.25')).toBe(0.25);
    expect(parseAmount('7.')).toBe(7);
    expect(parseAmount('0012.50')).toBe(12.5);
  });
});

describe('conversion', () => {
  it('fiat → BTC divides by the rate and shows 8 decimals', () => {
    expect(fiatToBtc('100', 92_400)).toBe('0.00108225');
    expect(fiatToBtc('92400', 92_400)).toBe('1.00000000');
    expect(fiatToBtc('1', 3)).toBe('0.33333333');
    expect(fiatToBtc('0.01', 1_000_000_000)).toBe('0.00000000');
  });

  it('BTC → fiat multiplies by the rate and shows 2 decimals', () => {
    expect(btcToFiat('1', 92_400)).toBe('92400.00');
    expect(btcToFiat('0.5', 92_400.5)).toBe('46200.25');
    expect(btcToFiat('0.00000001', 92_400)).toBe('0.00');
    expect(btcToFiat('2.5', 1)).toBe('2.50');
  });

  it('counts empty input as 0', () => {
    expect(fiatToBtc('', 92_400)).toBe('0.00000000');
    expect(btcToFiat('', 92_400)).toBe('0.00');
  });

  it('never shows a division by a missing rate', () => {
    expect(fiatToBtc('100', 0)).toBe('0.00000000');
    expect(fiatToBtc('100', Number.NaN)).toBe('0.00000000');
    expect(btcToFiat('1', 0)).toBe('0.00');
  });

  it('keeps the typed side and converts the other', () => {
    expect(convert('btc', '2', 100)).toEqual({ btc: '2', fiat: '200.00', from: 'btc' });
    expect(convert('fiat', '50', 100)).toEqual({ fiat: '50', btc: '0.50000000', from: 'fiat' });
    expect(convert('fiat', '', 100)).toEqual({ fiat: '', btc: '0.00000000', from: 'fiat' });
  });

  it('starts at 1 BTC', () => {
    expect(INITIAL_BTC).toBe('1');
    expect(initialAmounts(91_234.56)).toEqual({ btc: '1', fiat: '91234.56', from: 'btc' });
  });

  it('derives a currency rate from the live USD price', () => {
    expect(rateFromUsd(92_400, 1)).toBe(92_400);
    expect(rateFromUsd(92_400, 0.92)).toBe(85_008);
    expect(rateFromUsd(92_400.123, 1540.5)).toBe(142_342_389.48);
  });
});

describe('calculator URLs', () => {
  it('are /calculator/btc-to-{code in lower case} with the locale prefix', () => {
    expect(calculatorUrl('en', 'USD')).toBe('/calculator/btc-to-usd');
    expect(calculatorUrl('de', 'EUR')).toBe('/de/calculator/btc-to-eur');
    expect(calculatorUrl('he', 'ils')).toBe('/he/calculator/btc-to-ils');
  });

  it('read back the code in any case, and nothing else', () => {
    expect(pairCode('btc-to-usd')).toBe('USD');
    expect(pairCode('BTC-to-EUR')).toBe('EUR');
    for (const bad of [
      undefined,
      '',
      'btc-to-us',
      'btc-to-usdt',
      'eth-to-usd',
      'btc-usd',
      'btc-to-u5d',
      'xbtc-to-usd',
    ]) {
      expect(pairCode(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('currency search', () => {
  const list = [
    { code: 'USD', name: 'US Dollar' },
    { code: 'EUR', name: 'Euro' },
    { code: 'MXN', name: 'Mexican Peso' },
    { code: 'ARS', name: 'Argentine Peso' },
    { code: 'ISK', name: 'Íslensk króna' },
    { code: 'PEN', name: 'Peruvian Sol' },
  ];

  it('lists everything for an empty search', () => {
    expect(searchCurrencies(list, '  ').map((c) => c.code)).toEqual(list.map((c) => c.code));
  });

  it('puts code matches before name matches', () => {
    expect(searchCurrencies(list, 'pe').map((c) => c.code)).toEqual(['PEN', 'MXN', 'ARS']);
    expect(searchCurrencies(list, 'eur').map((c) => c.code)).toEqual(['EUR']);
  });

  it('ignores case and diacritics', () => {
    expect(searchCurrencies(list, 'KRONA').map((c) => c.code)).toEqual(['ISK']);
    expect(searchCurrencies(list, 'dollar').map((c) => c.code)).toEqual(['USD']);
    expect(searchCurrencies(list, 'zzz')).toEqual([]);
  });
});

describe('chart helpers', () => {
  const points = [
    { date: 0, rate: 100 },
    { date: 10, rate: 120 },
    { date: 20, rate: 80 },
    { date: 30, rate: 110 },
  ];

  it('finds high, low and the change from first to last', () => {
    expect(chartStats(points)).toEqual({ high: 120, low: 80, change: 0.1 });
    expect(chartStats(points.slice(0, 1))).toBeUndefined();
  });

  it('draws the server-side line across the whole box', () => {
    const path = sparklinePath(points, 300, 100, 0);
    expect(path).toBe('M0.0,50.0L100.0,0.0L200.0,100.0L300.0,25.0');
    expect(sparklinePath([], 300, 100)).toBe('');
  });
});
