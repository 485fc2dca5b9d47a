import { describe, expect, it } from 'vitest';
import { visitorContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import {
  type CryptoCode,
  createTickListeners,
  type PriceFeed,
  type PriceTick,
} from '../../server/services/price-feed/price-feed.ts';
import {
  convertMinor,
  createQuoteService,
  DEFAULT_QUOTE_TTL_SECONDS,
  type Quote,
  quotePrices,
} from '../../server/services/quotes/quotes.ts';
import { CONVERSION_SPREAD_BASIS_POINTS } from '../../src/lib/shared/fees.ts';

/** Quotes are public: anyone may read them. */
const visitor = visitorContext();

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

/** A feed the test moves by hand. */
function stubFeed(usd: Record<CryptoCode, number> = { BTC: 90_000, USDT: 1 }, clock = { now: T0 }) {
  const listeners = createTickListeners();
  let updatedAt = clock.now;
  const feed: PriceFeed & { tick(prices?: Partial<Record<CryptoCode, number>>): Promise<void> } = {
    source: 'simulated',
    usdPrice: (crypto) => usd[crypto],
    fiatPerUsd: () => undefined,
    updatedAt: () => updatedAt,
    resumeFrom() {},
    onTick: listeners.add,
    start() {},
    stop() {},
    tick(prices = {}) {
      Object.assign(usd, prices);
      updatedAt = clock.now;
      // Resolves once the tick's quote is issued (stored, then told to the listeners).
      return listeners.emit({ at: updatedAt, usd: { ...usd } } satisfies PriceTick);
    },
  };
  return feed;
}

function setup(options: { usd?: Record<CryptoCode, number>; ttlSeconds?: number; maxPriceAgeSeconds?: number } = {}) {
  const clock = { now: T0 };
  const feed = stubFeed(options.usd, clock);
  let n = 0;
  const quotes = createQuoteService({
    priceFeed: feed,
    now: () => clock.now,
    newId: () => `qt_${String(++n).padStart(16, '0')}`,
    ...(options.ttlSeconds ? { ttlSeconds: options.ttlSeconds } : {}),
    ...(options.maxPriceAgeSeconds ? { maxPriceAgeSeconds: options.maxPriceAgeSeconds } : {}),
  });
  return { clock, feed, quotes };
}

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

/** Deterministic pseudo-random integers (xorshift), so failures reproduce. */
function randomInts(seed: number) {
  let x = seed;
  return (max: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % max;
  };
}

describe('quote prices', () => {
  it('splits the 0.5 % spread around the mid price, in USDT cents per BTC', () => {
    expect(CONVERSION_SPREAD_BASIS_POINTS).toBe(50);
    expect(quotePrices(90_000)).toEqual({ askCents: 9_022_500n, bidCents: 8_977_500n });
  });

  it('rounds the ask up and the bid down, away from the mid', () => {
    // 12,345.67 × 1.0025 = 12,376.5341…; × 0.9975 = 12,314.8058…
    expect(quotePrices(12_345.67)).toEqual({ askCents: 1_237_654n, bidCents: 1_231_480n });
    // An odd spread: the extra basis point goes to the ask.
    expect(quotePrices(100, 51)).toEqual({ askCents: 10_026n, bidCents: 9_975n });
    expect(quotePrices(100, 0)).toEqual({ askCents: 10_000n, bidCents: 10_000n });
  });

  it('never quotes from a missing price', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => quotePrices(bad)).toThrow(RangeError);
  });
});

describe('quotes from the feed', () => {
  it('issues a quote at every tick with id, expiry and prices', async () => {
    const { feed, quotes, clock } = setup();
    const seen: Quote[] = [];
    quotes.onQuote((q) => seen.push(q));
    await feed.tick();
    clock.now += 10_000;
    await feed.tick({ BTC: 91_000 });
    expect(seen).toEqual([
      {
        id: 'qt_0000000000000001',
        expired_timestamp: T0 / 1000 + DEFAULT_QUOTE_TTL_SECONDS,
        service_price_ask: 90_225,
        service_price_bid: 89_775,
      },
      {
        id: 'qt_0000000000000002',
        expired_timestamp: T0 / 1000 + 10 + DEFAULT_QUOTE_TTL_SECONDS,
        service_price_ask: 91_227.5,
        service_price_bid: 90_772.5,
      },
    ]);
    // Both stay valid until their own expiry.
    expect(await quotes.get(visitor, { id: 'qt_0000000000000001' })).toEqual(seen[0]);
    expect(await quotes.get(visitor, { id: 'qt_0000000000000002' })).toEqual(seen[1]);
  });

  it('quotes USDT per BTC from both USD prices', async () => {
    const { feed, quotes } = setup({ usd: { BTC: 90_000, USDT: 0.9995 } });
    await feed.tick();
    // 90,000 / 0.9995 = 90,045.02 (cents); × 1.0025 = 90,270.13 26 → up; × 0.9975 = 89,819.90 75 → down.
    expect(await quotes.current(visitor)).toMatchObject({ service_price_ask: 90_270.14, service_price_bid: 89_819.9 });
  });

  it('rounds the expiry down to whole seconds, so a quote never outlives what it shows', async () => {
    const { feed, quotes, clock } = setup();
    clock.now = T0 + 999;
    await feed.tick();
    const quote = (await quotes.current(visitor)) as Quote;
    expect(quote.expired_timestamp).toBe(T0 / 1000 + 30);
    clock.now = quote.expired_timestamp * 1000 - 1;
    expect(await quotes.get(visitor, { id: quote.id })).toEqual(quote);
    clock.now += 1;
    expect(await quotes.get(visitor, { id: quote.id })).toBeUndefined();
  });

  it('keeps the newest quote while half its time is left, then issues a new one', async () => {
    const { feed, quotes, clock } = setup();
    await feed.tick();
    const first = (await quotes.current(visitor)) as Quote;
    clock.now += 15_000;
    expect(await quotes.current(visitor)).toEqual(first);
    clock.now += 1_000;
    const second = (await quotes.current(visitor)) as Quote;
    expect(second.id).not.toBe(first.id);
    expect(second.expired_timestamp).toBe(T0 / 1000 + 16 + 30);
  });

  it('quotes nothing new from a stalled feed; the last quote stands until it expires', async () => {
    const { feed, quotes, clock } = setup({ maxPriceAgeSeconds: 10 });
    await feed.tick();
    const last = (await quotes.current(visitor)) as Quote;
    // 16 s on, the prices are stale and the quote has less than half its time left.
    clock.now = T0 + 16_000;
    expect(await quotes.current(visitor)).toEqual(last);
    clock.now = T0 + 29_999;
    expect(await quotes.current(visitor)).toEqual(last);
    clock.now = T0 + 30_000;
    expect(await quotes.current(visitor)).toBeUndefined();
    await feed.tick();
    expect((await quotes.current(visitor))?.id).not.toBe(last.id);
  });

  it('issues no quote from a tick without usable prices', async () => {
    const { feed, quotes } = setup();
    const seen: Quote[] = [];
    quotes.onQuote((q) => seen.push(q));
    await feed.tick({ USDT: 0 });
    await feed.tick({ USDT: Number.NaN });
    expect(seen).toEqual([]);
  });

  it('keeps quoting when a listener throws, and stops telling one that left', async () => {
    const errors: unknown[] = [];
    const feed = stubFeed();
    const quotes = createQuoteService({ priceFeed: feed, now: () => T0, onListenerError: (e) => errors.push(e) });
    quotes.onQuote(() => {
      throw new Error('socket gone');
    });
    const seen: Quote[] = [];
    const stop = quotes.onQuote((q) => seen.push(q));
    await feed.tick();
    expect(seen).toHaveLength(1);
    expect(errors).toHaveLength(1);
    stop();
    await feed.tick();
    expect(seen).toHaveLength(1);
  });

  it('makes random ids with the qt_ prefix by default', async () => {
    const quotes = createQuoteService({ priceFeed: stubFeed(), now: () => T0 });
    const a = (await quotes.current(visitor)) as Quote;
    expect(a.id).toMatch(/^qt_[0-9A-Za-z]{16}$/);
  });
});

describe('convertAmount', () => {
  const BTC = 100_000_000; // satoshis in one bitcoin
  const USDT = 1_000_000; // micro-tether in one tether

  it('sells bitcoin at the bid and buys it at the ask, in minor units', async () => {
    const { quotes } = setup();
    const { id } = (await quotes.current(visitor)) as Quote;
    expect(await quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: BTC, quoteId: id })).toEqual({
      from: 'BTC',
      to: 'USDT',
      amountFrom: BTC,
      amountTo: 89_775 * USDT,
      price: 89_775,
      quoteId: id,
    });
    expect(
      (await quotes.convertAmount(visitor, { from: 'USDT', to: 'BTC', amountMinor: 90_225 * USDT, quoteId: id }))
        .amountTo,
    ).toBe(BTC);
    // 100 USDT at 90,225.00 = 0.00110834 03… BTC: rounded down.
    expect(
      await quotes.convertAmount(visitor, { from: 'USDT', to: 'BTC', amountMinor: 100 * USDT, quoteId: id }),
    ).toMatchObject({
      amountTo: 110_834,
      price: 90_225,
    });
    // 1 satoshi at 89,775.00 = 897.75 micro-USDT: rounded down.
    expect(
      (await quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: 1, quoteId: id })).amountTo,
    ).toBe(897);
  });

  it('never gives more than the rate allows, and exactly as much as it does (random amounts)', async () => {
    const { quotes, feed, clock } = setup();
    const next = randomInts(0x5eed);
    for (let round = 0; round < 40; round++) {
      clock.now += 10_000;
      await feed.tick({ BTC: 20_000 + next(180_000) + next(100) / 100, USDT: 0.99 + next(200) / 10_000 });
      const quote = (await quotes.current(visitor)) as Quote;
      const bid = BigInt(Math.round(quote.service_price_bid * 100));
      const ask = BigInt(Math.round(quote.service_price_ask * 100));
      expect(ask).toBeGreaterThan(bid);
      for (let i = 0; i < 50; i++) {
        const sats = 1 + next(2_000_000_000);
        const micro = 1_000 + next(2_000_000_000) * 100;
        const toUsdt = BigInt(
          (await quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: sats, quoteId: quote.id }))
            .amountTo,
        );
        // Value given ≥ value received, and one more minor unit would be too much:
        // amountTo × 10^4 ≤ sats × bid < (amountTo + 1) × 10^4.
        expect(toUsdt * 10_000n <= BigInt(sats) * bid).toBe(true);
        expect((toUsdt + 1n) * 10_000n > BigInt(sats) * bid).toBe(true);
        const toBtc = BigInt(
          (await quotes.convertAmount(visitor, { from: 'USDT', to: 'BTC', amountMinor: micro, quoteId: quote.id }))
            .amountTo,
        );
        expect(toBtc * ask <= BigInt(micro) * 10_000n).toBe(true);
        expect((toBtc + 1n) * ask > BigInt(micro) * 10_000n).toBe(true);
        // A round trip never makes money, and two halves never give more than the whole.
        if (toUsdt > 0n) {
          const back = await quotes.convertAmount(visitor, {
            from: 'USDT',
            to: 'BTC',
            amountMinor: Number(toUsdt),
            quoteId: quote.id,
          });
          expect(back.amountTo).toBeLessThanOrEqual(sats);
        }
        const half = Math.floor(sats / 2);
        if (half > 0) {
          const parts = convertMinor('BTC', BigInt(half), bid) + convertMinor('BTC', BigInt(sats - half), bid);
          expect(parts <= toUsdt).toBe(true);
        }
      }
    }
  });

  it('refuses expired quotes, unknown ids, and forgets old quotes', async () => {
    const { quotes, feed, clock } = setup();
    await feed.tick();
    const quote = (await quotes.current(visitor)) as Quote;
    const convert = (quoteId: string) => () =>
      quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: 1_000, quoteId });
    clock.now = quote.expired_timestamp * 1000 - 1;
    expect(await codeOf(convert(quote.id))).toBeUndefined();
    clock.now += 1;
    expect(await codeOf(convert(quote.id))).toBe('QUOTE_EXPIRED');
    expect(await codeOf(convert('qt_doesnotexist000'))).toBe('QUOTE_UNKNOWN');
    expect(await quotes.get(visitor, { id: 'qt_doesnotexist000' })).toBeUndefined();
    // Ten minutes after expiry, the next quote makes room: the old id is then unknown.
    clock.now += 10 * 60 * 1000;
    await feed.tick();
    expect(await codeOf(convert(quote.id))).toBe('QUOTE_UNKNOWN');
  });

  it('answers the expired quote with the field and its expiry', async () => {
    const { quotes, feed, clock } = setup();
    await feed.tick();
    const quote = (await quotes.current(visitor)) as Quote;
    clock.now += 31_000;
    try {
      await quotes.convertAmount(visitor, { from: 'USDT', to: 'BTC', amountMinor: 5 * USDT, quoteId: quote.id });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'QUOTE_EXPIRED',
        field: 'quote_id',
        meta: { expiredTimestamp: quote.expired_timestamp },
      });
    }
  });

  it('remembers at most a thousand quotes', async () => {
    const { quotes, feed, clock } = setup({ ttlSeconds: 300 });
    await feed.tick();
    const first = (await quotes.current(visitor)) as Quote;
    for (let i = 0; i < 1_000; i++) {
      clock.now += 10;
      await feed.tick();
    }
    expect(
      await codeOf(() => quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: 1, quoteId: first.id })),
    ).toBe('QUOTE_UNKNOWN');
    expect(await quotes.get(visitor, { id: (await quotes.current(visitor))?.id ?? '' })).toBeDefined();
  });

  it.each([
    [{ from: 'BTC', to: 'BTC', amountMinor: 1 }, 'to_crypto_currency_code'],
    [{ from: 'BTC', to: 'EUR', amountMinor: 1 }, 'to_crypto_currency_code'],
    [{ from: 'BTC', to: 'USDT', amountMinor: 0 }, 'amount'],
    [{ from: 'BTC', to: 'USDT', amountMinor: -5 }, 'amount'],
    [{ from: 'BTC', to: 'USDT', amountMinor: 1.5 }, 'amount'],
    [{ from: 'BTC', to: 'USDT', amountMinor: Number.MAX_SAFE_INTEGER + 1 }, 'amount'],
    // 1 micro-USDT buys 0.011… satoshi: nothing, so it is refused rather than taken.
    [{ from: 'USDT', to: 'BTC', amountMinor: 1 }, 'amount'],
  ])('refuses %j with a field error', async (input, field) => {
    const { quotes } = setup();
    const { id } = (await quotes.current(visitor)) as Quote;
    try {
      await quotes.convertAmount(visitor, {
        ...(input as { from: CryptoCode; to: CryptoCode; amountMinor: number }),
        quoteId: id,
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field });
    }
  });

  it('refuses a result beyond the safe integers', async () => {
    const { quotes } = setup();
    const { id } = (await quotes.current(visitor)) as Quote;
    // 2^53 − 1 satoshis × 89,775 USDT is more micro-USDT than a safe integer holds.
    expect(
      await codeOf(() =>
        quotes.convertAmount(visitor, { from: 'BTC', to: 'USDT', amountMinor: Number.MAX_SAFE_INTEGER, quoteId: id }),
      ),
    ).toBe('ERROR_INPUT_VALIDATION');
  });
});
