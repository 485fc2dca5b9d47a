import { newId } from '../../../db/ids.ts';
import { CONVERSION_SPREAD_BASIS_POINTS } from '../../../src/lib/shared/fees.ts';
import { createMemoryStore, type SharedStore } from '../../shared-store.ts';
import type { ServiceContext } from '../context.ts';
import type { PriceFeed, PriceTick } from '../price-feed/price-feed.ts';
import { createQuoteBook } from './book.ts';
import { type ConvertAmountInput, convertAmount } from './convert-amount.ts';
import type { Conversion, Quote } from './types.ts';

// Conversion ("hedging") quotes between BTC and USDT, spec sections 3, 4 and 7: a price for each
// side, valid for a short time, named by an id the convert call quotes back. A new quote at every
// price tick, published on the public `quotes` channel (publish.ts, wired in server/backend.ts).
// Prices and amounts: pricing.ts; the quotes issued so far, in a store all processes share: book.ts.

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
  /** Where issued quotes are kept: the deployment's store (Redis) when several processes serve; else memory. */
  store?: SharedStore;
  /** A quote listener that throws is reported here; the quote and the other listeners stand. */
  onListenerError?: (error: unknown) => void;
}

const newQuoteId = () => newId('qt');

/** The memory store's bound: whatever the tick rate, at most this many quotes are remembered. */
const MAX_REMEMBERED = 1_000;

/** Issuing quotes: one per tick, and one shared by the requests between ticks that need it. */
function quoteIssuer(book: ReturnType<typeof createQuoteBook>, currentPrices: () => PriceTick['usd']) {
  /** A new quote from prices; none from prices that cannot be quoted. */
  const issueFrom = async (usd: PriceTick['usd']): Promise<Quote | undefined> => {
    try {
      return (await book.issue(usd)).quote;
    } catch (error) {
      if (error instanceof RangeError) return undefined;
      throw error;
    }
  };
  let onDemand: Promise<Quote | undefined> | undefined;
  return {
    /** A new quote from a price tick; none from a tick without usable prices. */
    fromTick: (tick: PriceTick) => issueFrom(tick.usd),
    /** Requests between ticks that find the newest quote old share one new quote. */
    issueOnDemand() {
      onDemand ??= issueFrom(currentPrices()).finally(() => {
        onDemand = undefined;
      });
      return onDemand;
    },
  };
}

export function createQuoteService({
  priceFeed,
  now = Date.now,
  ttlSeconds = DEFAULT_QUOTE_TTL_SECONDS,
  maxPriceAgeSeconds = 60,
  spreadBasisPoints = CONVERSION_SPREAD_BASIS_POINTS,
  newId = newQuoteId,
  store = createMemoryStore({ now, maxEntries: MAX_REMEMBERED }),
  onListenerError = () => {},
}: QuoteServiceOptions) {
  const book = createQuoteBook({ now, ttlSeconds, spreadBasisPoints, newId, store, onListenerError });
  const feedIsFresh = () => now() - priceFeed.updatedAt() <= maxPriceAgeSeconds * 1000;
  const currentPrices = () => ({ BTC: priceFeed.usdPrice('BTC'), USDT: priceFeed.usdPrice('USDT') });

  const { fromTick, issueOnDemand } = quoteIssuer(book, currentPrices);
  // One quote per tick for the whole deployment: where the feed mirrors another process's ticks,
  // that process (the leader) quotes them, and this one hears its quotes (publish.ts).
  const stopTicks = priceFeed.onTick((tick) => ((priceFeed.leads?.() ?? true) ? fromTick(tick) : undefined));

  return {
    ttlSeconds,
    fromTick,

    /**
     * The quote to show now: the newest while at least half its time is left, else a new one from
     * the feed's prices when they are fresh; undefined when no price can be quoted (the wallet
     * then shows the rate as missing and disables conversion, spec section 5).
     */
    async current(_ctx: ServiceContext): Promise<Quote | undefined> {
      const newest = book.newest();
      if (newest && newest.expired_timestamp * 1000 - now() >= (ttlSeconds * 1000) / 2) return newest;
      if (feedIsFresh()) {
        const issued = await issueOnDemand();
        if (issued) return issued;
      }
      // A stalled feed: the newest quote still stands until it expires.
      const latest = book.newest();
      return latest && book.live(latest) ? latest : undefined;
    },

    /** The quote while it is unexpired; undefined for an unknown or expired id. */
    async get(_ctx: ServiceContext, { id }: { id: string }): Promise<Quote | undefined> {
      const stored = await book.find(id);
      return stored && book.live(stored.quote) ? stored.quote : undefined;
    },

    /** What an amount buys at a quote (convert-amount.ts). */
    convertAmount: (_ctx: ServiceContext, input: ConvertAmountInput): Promise<Conversion> =>
      convertAmount(book.valid, input),

    /** A quote another process issued (and stored), heard on the bus: it may be the newest. */
    adopt: book.adopt,

    /** Stops quoting at the feed's ticks. */
    stop: stopTicks,

    /** Every new quote issued here, in order; returns the function that stops listening. */
    onQuote(listener: (quote: Quote) => void): () => void {
      book.listeners.add(listener);
      return () => {
        book.listeners.delete(listener);
      };
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
