import type { SharedStore } from '../../shared-store.ts';
import { AppError } from '../errors.ts';
import type { CryptoCode } from '../price-feed/price-feed.ts';
import { centsToNumber, quotePrices } from './pricing.ts';
import type { Quote } from './types.ts';

// The quotes issued so far, in a store every process reads (server/shared-store.ts: Redis with
// REDIS_URL, else this process's memory), so a quote issued by one process is accepted by
// another. A quote is stored before anyone hears of it. Each new quote goes to every listener in
// issue order; the newest quote known here (issued here or heard from another process) is what
// `current` shows.

/** Expired quotes are remembered this long, so a late convert hears "expired", not "unknown". */
export const REMEMBER_EXPIRED_MS = 10 * 60 * 1000;

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
  store: SharedStore;
  onListenerError: (error: unknown) => void;
}

const keyOf = (id: string) => `quote:${id}`;

/** Stored as text: the cents are bigints, kept exact as decimal strings. */
const serialize = ({ quote, askCents, bidCents }: Stored) =>
  JSON.stringify({ quote, askCents: String(askCents), bidCents: String(bidCents) });

function parse(text: string): Stored {
  const { quote, askCents, bidCents } = JSON.parse(text) as { quote: Quote; askCents: string; bidCents: string };
  return { quote, askCents: BigInt(askCents), bidCents: BigInt(bidCents), expiresAtMs: quote.expired_timestamp * 1000 };
}

export function createQuoteBook(options: QuoteBookOptions) {
  const { now, ttlSeconds, spreadBasisPoints, newId, store, onListenerError } = options;
  const listeners = new Set<(quote: Quote) => void>();
  let newest: Quote | undefined;

  /** Takes `quote` as the newest when it outlives the one known. */
  const adopt = (quote: Quote) => {
    if (!newest || quote.expired_timestamp > newest.expired_timestamp) newest = quote;
  };

  const issue = async (usd: Record<CryptoCode, number>): Promise<Stored> => {
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
    await store.set(keyOf(stored.quote.id), serialize(stored), stored.expiresAtMs + REMEMBER_EXPIRED_MS - at);
    adopt(stored.quote);
    for (const listener of listeners) {
      try {
        listener(stored.quote);
      } catch (error) {
        onListenerError(error);
      }
    }
    return stored;
  };

  const live = (quote: Quote): boolean => now() < quote.expired_timestamp * 1000;

  /** The quote `id` as stored, expired or not; undefined when unknown or forgotten. */
  const find = async (id: string): Promise<Stored | undefined> => {
    const text = await store.get(keyOf(id));
    return text === undefined ? undefined : parse(text);
  };

  /** The quote `id` while it is valid; throws QUOTE_UNKNOWN or QUOTE_EXPIRED otherwise. */
  const valid = async (id: string): Promise<Stored> => {
    const stored = await find(id);
    if (!stored) {
      throw new AppError('QUOTE_UNKNOWN', 'This quote is unknown or too old. Ask for a new quote.', {
        field: 'quote_id',
      });
    }
    if (!live(stored.quote)) {
      throw new AppError('QUOTE_EXPIRED', 'This quote has expired. Ask for a new quote.', {
        field: 'quote_id',
        meta: { expiredTimestamp: stored.quote.expired_timestamp },
      });
    }
    return stored;
  };

  return { listeners, newest: () => newest, adopt, issue, live, find, valid };
}

export type QuoteBook = ReturnType<typeof createQuoteBook>;
