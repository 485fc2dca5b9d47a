import { newId } from '../../../db/ids.ts';
import { CONVERSION_SPREAD_BASIS_POINTS } from '../../../src/lib/shared/fees.ts';
import type { ServiceContext } from '../context.ts';
import type { PriceFeed, PriceTick } from '../price-feed/price-feed.ts';
import { createQuoteBook, type Stored } from './book.ts';
import { type ConvertAmountInput, convertAmount } from './convert-amount.ts';
import type { Conversion, Quote } from './types.ts';

// Conversion ("hedging") quotes between BTC and USDT, spec sections 3, 4 and 7: a price for each
// side, valid for a short time, named by an id the convert call quotes back. A new quote at every
// price tick, published on the public `quotes` channel (publish.ts, wired in server/backend.ts).
// Prices and amounts: pricing.ts; the quotes issued so far, in memory only: book.ts.

export type { ConvertAmountInput } from './convert-amount.ts';
export { convertMinor, quotePrices } from './pricing.ts';
export type { Conversion, Quote } from './types.ts';

/** The realtime channel of spec section 7's "rate quota channel". */
export const QUOTES_CHANNEL = 'quotes';

export const DEFAULT_QUOTE_TTL_SECONDS = 30;

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

const newQuoteId = () => newId('qt');

export function createQuoteService({
  priceFeed,
  now = Date.now,
  ttlSeconds = DEFAULT_QUOTE_TTL_SECONDS,
  maxPriceAgeSeconds = 60,
  spreadBasisPoints = CONVERSION_SPREAD_BASIS_POINTS,
  newId = newQuoteId,
  onListenerError = () => {},
}: QuoteServiceOptions) {
  const { book, issue, live, valid } = createQuoteBook({ now, ttlSeconds, spreadBasisPoints, newId, onListenerError });
  const feedIsFresh = () => now() - priceFeed.updatedAt() <= maxPriceAgeSeconds * 1000;
  const currentPrices = () => ({ BTC: priceFeed.usdPrice('BTC'), USDT: priceFeed.usdPrice('USDT') });

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
    current(_ctx: ServiceContext): Quote | undefined {
      const { newest } = book;
      if (newest && newest.expiresAtMs - now() >= (ttlSeconds * 1000) / 2) return newest.quote;
      if (feedIsFresh()) {
        try {
          return issue(currentPrices()).quote;
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
        }
      }
      // A stalled feed: the newest quote still stands until it expires.
      const latest: Stored | undefined = book.newest;
      return latest && live(latest) ? latest.quote : undefined;
    },

    /** The quote while it is unexpired; undefined for an unknown or expired id. */
    get(_ctx: ServiceContext, { id }: { id: string }): Quote | undefined {
      const stored = book.quotes.get(id);
      return stored && live(stored) ? stored.quote : undefined;
    },

    /** What an amount buys at a quote (convert-amount.ts). */
    convertAmount: (_ctx: ServiceContext, input: ConvertAmountInput): Conversion => convertAmount(valid, input),

    /** Stops quoting at the feed's ticks. */
    stop: stopTicks,

    /** Every new quote, in order; returns the function that stops listening. */
    onQuote(listener: (quote: Quote) => void): () => void {
      book.listeners.add(listener);
      return () => {
        book.listeners.delete(listener);
      };
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
