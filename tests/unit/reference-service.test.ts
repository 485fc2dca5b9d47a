import { describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import type { CryptoCode, PriceFeed } from '../../server/services/price-feed/price-feed.ts';
import { createReferenceService } from '../../server/services/reference/reference.ts';
import type { ReferenceRepository } from '../../server/services/reference/repository.ts';

function fakeFeed(prices: Record<CryptoCode, number>, fiatPerUsd: Record<string, number> = {}): PriceFeed {
  return {
    source: 'simulated',
    usdPrice: (c) => prices[c],
    fiatPerUsd: (code) => fiatPerUsd[code],
    updatedAt: () => 0,
    resumeFrom: () => {},
    onTick: () => () => {},
    start: () => {},
    stop: () => {},
  };
}

const rows = [
  { id: 1, code: 'USD', name: 'US Dollar', symbol: '$', minorUnits: 2, usdRate: 1, sortOrder: 1, defaultAmount: 100 },
  {
    id: 2,
    code: 'JPY',
    name: 'Japanese Yen',
    symbol: '¥',
    minorUnits: 0,
    usdRate: 150,
    sortOrder: 12,
    defaultAmount: 10000,
  },
];
const repo = { listCurrencies: async () => rows } as unknown as ReferenceRepository;
const ctx = systemContext('test');

describe('reference service: currencies', () => {
  it('derives each fiat price from the feed and the currency USD rate', async () => {
    const service = createReferenceService({ repo, priceFeed: fakeFeed({ BTC: 100_000, USDT: 1.001 }), now: Date.now });
    const [, jpy] = await service.listCurrencies(ctx, { locale: 'en' });
    expect(jpy?.rate).toEqual({ usd: 150, btc: 15_000_000, usdt: 150.15 });
  });

  it('takes the exchange rate from the feed when it quotes one, else the seeded rate', async () => {
    const service = createReferenceService({
      repo,
      priceFeed: fakeFeed({ BTC: 100_000, USDT: 1 }, { JPY: 155.5 }),
      now: Date.now,
    });
    const [usd, jpy] = await service.listCurrencies(ctx, { locale: 'en' });
    expect(jpy?.rate).toEqual({ usd: 155.5, btc: 15_550_000, usdt: 155.5 });
    expect(usd?.rate.usd).toBe(1);
    expect(await service.fiatPerUsd(ctx, { code: 'JPY' })).toBe(155.5);
    await expect(service.fiatPerUsd(ctx, { code: 'EUR', field: 'currency' })).rejects.toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', field: 'currency' }),
    );
  });

  it('reuses the shaped list until the price moves, then reshapes it', async () => {
    const prices = { BTC: 100_000, USDT: 1 };
    const service = createReferenceService({ repo, priceFeed: fakeFeed(prices), now: Date.now });
    const first = await service.listCurrencies(ctx, { locale: 'en' });
    expect(await service.listCurrencies(ctx, { locale: 'en' })).toBe(first);
    prices.BTC = 101_000;
    const moved = await service.listCurrencies(ctx, { locale: 'en' });
    expect(moved).not.toBe(first);
    expect(moved[0]?.rate.btc).toBe(101_000);
  });

  it('keeps one list per language', async () => {
    const service = createReferenceService({ repo, priceFeed: fakeFeed({ BTC: 1, USDT: 1 }), now: Date.now });
    expect((await service.listCurrencies(ctx, { locale: 'ja' }))[1]?.name).toBe('日本円');
    expect((await service.listCurrencies(ctx, { locale: 'en' }))[1]?.name).toBe('Japanese Yen');
    expect(await service.popularCurrencyCodes(ctx)).toEqual(['USD']);
  });
});
