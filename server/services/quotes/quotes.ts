import { randomBase62 } from '../../../db/ids.ts';
import { CONVERSION_SPREAD_BASIS_POINTS } from '../../../src/lib/shared/fees.ts';
import { CRYPTO_DECIMALS } from '../../../src/lib/shared/money.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { CryptoCode, PriceFeed, PriceTick } from '../price-feed/price-feed.ts';

// Conversion ("hedging") quotes between BTC and USDT, spec sections 3, 4 and 7: a price for each
// side, valid for a short time, named by an id the convert call quotes back. A new quote at every
// price tick, published on the public `quotes` channel (publish.ts, wired in server/backend.ts).
//
// Prices are USDT per BTC with 2 decimals (USDT cents), kept as integers: the numbers a client is
// shown are exactly the numbers its conversion is computed with. The spread
// (CONVERSION_SPREAD_BASIS_POINTS) is split between the sides around the market's mid price, each
// side rounded away from the mid (ask up, bid down). Amounts convert in integer minor units
// (BTC 8 decimals, USDT 6) with bigint arithmetic, rounded down: never more than the rate gives.
//
// Quotes live in memory only: a restart forgets them, and a client then asks for a new one.

/** The realtime channel of spec section 7's "rate quota channel". */
export const QUOTES_CHANNEL = 'quotes';

/** What clients see (spec section 3: "The realtime quote carries expired_timestamp, service_price_ask, service_price_bid and id"). */
export interface Quote {
  /** `qt_…`, the `quote_id` of POST /rest/v1/hedging/convert. */
  id: string;
  /** Unix seconds; the quote is refused from this second on. */
  expired_timestamp: number;
  /** USDT per BTC the platform sells bitcoin at (USDT → BTC). */
  service_price_ask: number;
  /** USDT per BTC the platform buys bitcoin at (BTC → USDT). */
  service_price_bid: number;
}

export const DEFAULT_QUOTE_TTL_SECONDS = 30;

/** Price decimals: USDT per BTC in cents, as exchanges quote BTC/USDT. */
const PRICE_DECIMALS = 2;
const BASIS = 10_000n;
/** Expired quotes are remembered this long, so a late convert hears "expired", not "unknown". */
const REMEMBER_EXPIRED_MS = 10 * 60 * 1000;
/** A bound on memory whatever the tick rate. */
const MAX_REMEMBERED = 1_000;

interface Stored {
  quote: Quote;
  askCents: bigint;
  bidCents: bigint;
  /** Unix milliseconds from which the quote is refused (= expired_timestamp × 1000). */
  expiresAtMs: number;
}

export interface Conversion {
  from: CryptoCode;
  to: CryptoCode;
  /** Minor units given (satoshis or micro-USDT). */
  amountFrom: number;
  /** Minor units received, rounded down. */
  amountTo: number;
  /** The price applied: `service_price_bid` for BTC → USDT, `service_price_ask` for USDT → BTC. */
  price: number;
  quoteId: string;
}

export interface QuoteServiceOptions {
  priceFeed: PriceFeed;
  now?: () => number;
  ttlSeconds?: number;
  /** Prices older than this are not quoted on request: a stalled feed must not be traded against. */
  maxPriceAgeSeconds?: number;
  spreadBasisPoints?: number;
  newId?: () => string;
  /** A quote listener that throws is reported here; the quote and the other listeners stand. */
  onListenerError?: (error: unknown) => void;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * Ask and bid in USDT cents per BTC for a mid price: half the spread each side (the odd basis
 * point, if any, on the ask), rounded away from the mid.
 */
export function quotePrices(midUsdtPerBtc: number, spreadBasisPoints = CONVERSION_SPREAD_BASIS_POINTS) {
  if (!Number.isFinite(midUsdtPerBtc) || midUsdtPerBtc <= 0) throw new RangeError('no usable price');
  const mid = BigInt(Math.round(midUsdtPerBtc * 10 ** PRICE_DECIMALS));
  const spread = BigInt(spreadBasisPoints);
  const askSide = ceilDiv(spread, 2n);
  const bidSide = spread - askSide;
  const askCents = ceilDiv(mid * (BASIS + askSide), BASIS);
  const bidCents = (mid * (BASIS - bidSide)) / BASIS;
  if (bidCents <= 0n) throw new RangeError('no usable price');
  return { askCents, bidCents };
}

/**
 * Minor units of `to` for `amountFrom` minor units of `from` at a price in USDT cents per BTC,
 * rounded down. BTC → USDT: sats × cents × 10^6 / (10^8 × 10^2); USDT → BTC: the inverse.
 */
export function convertMinor(from: CryptoCode, amountFrom: bigint, priceCents: bigint): bigint {
  const scale = 10n ** BigInt(CRYPTO_DECIMALS.BTC + PRICE_DECIMALS - CRYPTO_DECIMALS.USDT);
  return from === 'BTC' ? (amountFrom * priceCents) / scale : (amountFrom * scale) / priceCents;
}

const centsToNumber = (cents: bigint) => Number(cents) / 10 ** PRICE_DECIMALS;

export function createQuoteService({
  priceFeed,
  now = Date.now,
  ttlSeconds = DEFAULT_QUOTE_TTL_SECONDS,
  maxPriceAgeSeconds = 60,
  spreadBasisPoints = CONVERSION_SPREAD_BASIS_POINTS,
  newId = () => `qt_${randomBase62(16)}`,
  onListenerError = () => {},
}: QuoteServiceOptions) {
  const quotes = new Map<string, Stored>();
  const listeners = new Set<(quote: Quote) => void>();
  let newest: Stored | undefined;

  const forget = (at: number) => {
    for (const [id, stored] of quotes) {
      if (stored.expiresAtMs + REMEMBER_EXPIRED_MS > at && quotes.size <= MAX_REMEMBERED) break;
      quotes.delete(id);
    }
  };

  const issue = (usd: Record<CryptoCode, number>): Stored => {
    const at = now();
    const { askCents, bidCents } = quotePrices(usd.BTC / usd.USDT, spreadBasisPoints);
    // Whole seconds, rounded down: the quote never lives longer than the time it shows.
    const expiredTimestamp = Math.floor((at + ttlSeconds * 1000) / 1000);
    const stored: Stored = {
      quote: {
        id: newId(),
        expired_timestamp: expiredTimestamp,
        service_price_ask: centsToNumber(askCents),
        service_price_bid: centsToNumber(bidCents),
      },
      askCents,
      bidCents,
      expiresAtMs: expiredTimestamp * 1000,
    };
    // Insertion order is issue order, so forget() drops the oldest first.
    quotes.set(stored.quote.id, stored);
    newest = stored;
    forget(at);
    for (const listener of listeners) {
      try {
        listener(stored.quote);
      } catch (error) {
        onListenerError(error);
      }
    }
    return stored;
  };

  const live = (stored: Stored): boolean => now() < stored.expiresAtMs;
  const feedIsFresh = () => now() - priceFeed.updatedAt() <= maxPriceAgeSeconds * 1000;
  const currentPrices = () => ({ BTC: priceFeed.usdPrice('BTC'), USDT: priceFeed.usdPrice('USDT') });

  /** The quote `id` while it is valid; throws QUOTE_UNKNOWN or QUOTE_EXPIRED otherwise. */
  const valid = (id: string): Stored => {
    const stored = quotes.get(id);
    if (!stored) {
      throw new AppError('QUOTE_UNKNOWN', 'This quote is unknown or too old. Ask for a new quote.', {
        field: 'quote_id',
      });
    }
    if (!live(stored)) {
      throw new AppError('QUOTE_EXPIRED', 'This quote has expired. Ask for a new quote.', {
        field: 'quote_id',
        meta: { expiredTimestamp: stored.quote.expired_timestamp },
      });
    }
    return stored;
  };

  /** A new quote from a price tick; none from a tick without usable prices. */
  const fromTick = (tick: PriceTick): Quote | undefined => {
    try {
      return issue(tick.usd).quote;
    } catch (error) {
      if (error instanceof RangeError) return undefined;
      throw error;
    }
  };
  const stopTicks = priceFeed.onTick(fromTick);

  return {
    ttlSeconds,
    fromTick,

    /**
     * The quote to show now: the newest while at least half its time is left, else a new one from
     * the feed's prices when they are fresh; undefined when no price can be quoted (the wallet
     * then shows the rate as missing and disables conversion, spec section 5).
     */
    current(): Quote | undefined {
      if (newest && newest.expiresAtMs - now() >= (ttlSeconds * 1000) / 2) return newest.quote;
      if (feedIsFresh()) {
        try {
          return issue(currentPrices()).quote;
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
        }
      }
      // A stalled feed: the newest quote still stands until it expires.
      const latest: Stored | undefined = newest;
      return latest && live(latest) ? latest.quote : undefined;
    },

    /** The quote while it is unexpired; undefined for an unknown or expired id. */
    get(id: string): Quote | undefined {
      const stored = quotes.get(id);
      return stored && live(stored) ? stored.quote : undefined;
    },

    /**
     * What `amountMinor` of `from` buys of `to` at quote `quoteId`, in minor units, rounded down.
     * Typed errors: QUOTE_UNKNOWN, QUOTE_EXPIRED, ERROR_INPUT_VALIDATION (currencies, amount, or
     * an amount too small to give anything).
     */
    convertAmount({
      from,
      to,
      amountMinor,
      quoteId,
    }: {
      from: CryptoCode;
      to: CryptoCode;
      amountMinor: number;
      quoteId: string;
    }): Conversion {
      if (from === to || !Object.hasOwn(CRYPTO_DECIMALS, from) || !Object.hasOwn(CRYPTO_DECIMALS, to)) {
        throw invalidInput([{ field: 'to_crypto_currency_code', message: 'Convert between BTC and USDT.' }]);
      }
      if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
        throw invalidInput([
          { field: 'amount', message: 'The amount must be a positive whole number of minor units.' },
        ]);
      }
      const stored = valid(quoteId);
      const priceCents = from === 'BTC' ? stored.bidCents : stored.askCents;
      const amountTo = convertMinor(from, BigInt(amountMinor), priceCents);
      if (amountTo <= 0n) {
        throw invalidInput([{ field: 'amount', message: 'The amount is too small to convert at this rate.' }]);
      }
      if (amountTo > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw invalidInput([{ field: 'amount', message: 'The amount is too large.' }]);
      }
      return {
        from,
        to,
        amountFrom: amountMinor,
        amountTo: Number(amountTo),
        price: centsToNumber(priceCents),
        quoteId,
      };
    },

    /** Stops quoting at the feed's ticks. */
    stop: stopTicks,

    /** Every new quote, in order; returns the function that stops listening. */
    onQuote(listener: (quote: Quote) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
