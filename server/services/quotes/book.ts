import { AppError } from '../errors.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import { centsToNumber, quotePrices } from './pricing.ts';
import type { Quote } from './types.ts';

// The quotes issued so far, in memory only: a restart forgets them, and a client then asks for a
// new one. Each new quote goes to every listener in issue order.

/** Expired quotes are remembered this long, so a late convert hears "expired", not "unknown". */
const REMEMBER_EXPIRED_MS = 10 * 60 * 1000;
/** A bound on memory whatever the tick rate. */
const MAX_REMEMBERED = 1_000;

export interface Stored {
  quote: Quote;
  askCents: bigint;
  bidCents: bigint;
  /** Unix milliseconds from which the quote is refused (= expired_timestamp × 1000). */
  expiresAtMs: number;
}

export interface QuoteBookOptions {
  now: () => number;
  ttlSeconds: number;
  spreadBasisPoints: number;
  newId: () => string;
  onListenerError: (error: unknown) => void;
}

export function createQuoteBook({ now, ttlSeconds, spreadBasisPoints, newId, onListenerError }: QuoteBookOptions) {
  const quotes = new Map<string, Stored>();
  const listeners = new Set<(quote: Quote) => void>();
  const book = { quotes, listeners, newest: undefined as Stored | undefined };

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
    book.newest = stored;
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

  return { book, issue, live, valid };
}

export type QuoteBook = ReturnType<typeof createQuoteBook>;
