import { map } from 'nanostores';
import { quoteIsLive } from '../components/wallet/conversion.ts';
import type { Quote } from '../components/wallet/types.ts';
import { apiGet } from '../lib/api-client.ts';
import { subscribeChannel } from '../lib/use-channel.ts';
import { onClientMount } from './client-mount.ts';

// The conversion quote of one wallet island and the flags of spec section 3: `obsolete` (the
// quote passed its expiry second, or one arrived already expired) and `subscribeError` (the
// public `quotes` channel was given up). One store per island, created with what the server
// rendered; the channel and the expiry timer run only while the island listens (the browser).

export interface QuoteView {
  quote: Quote | undefined;
  obsolete: boolean;
  subscribeError: boolean;
}

/** The realtime quote's snake case, or undefined when the payload is not a quote. */
function quoteOf(payload: unknown): Quote | undefined {
  const q = payload as {
    id?: unknown;
    expired_timestamp?: unknown;
    service_price_ask?: unknown;
    service_price_bid?: unknown;
  };
  if (typeof q?.id !== 'string' || typeof q.expired_timestamp !== 'number') return undefined;
  if (typeof q.service_price_ask !== 'number' || typeof q.service_price_bid !== 'number') return undefined;
  return { id: q.id, expiredTimestamp: q.expired_timestamp, ask: q.service_price_ask, bid: q.service_price_bid };
}

export function createQuoteStore(initial: Quote | undefined) {
  const $quote = map<QuoteView>({
    quote: initial,
    obsolete: initial !== undefined && !quoteIsLive(initial, Date.now()),
    subscribeError: false,
  });
  let expiry: ReturnType<typeof setTimeout> | undefined;

  /** At its expiry second the quote becomes obsolete until the next one arrives. */
  const watchExpiry = (quote: Quote | undefined) => {
    clearTimeout(expiry);
    if (!quote) return;
    const left = quote.expiredTimestamp * 1000 - Date.now();
    if (left <= 0) $quote.setKey('obsolete', true);
    else expiry = setTimeout(() => $quote.setKey('obsolete', true), left);
  };

  const receive = (next: Quote) => {
    // Spec section 4: a quote that arrives expired marks the rate obsolete.
    if (!quoteIsLive(next, Date.now())) {
      $quote.setKey('obsolete', true);
      return;
    }
    $quote.set({ ...$quote.get(), quote: next, obsolete: false });
    watchExpiry(next);
  };

  /** Asks for the current quote (crypto-fiat-rates) unless a live one is known. */
  const ensureLive = async () => {
    if (quoteIsLive($quote.get().quote, Date.now())) return;
    const answer = await apiGet<{
      quoteId: string | null;
      expiredTimestamp: number | null;
      servicePriceAsk: number | null;
      servicePriceBid: number | null;
    }>('/rest/v1/crypto-fiat-rates?camelCase=1');
    const d = answer.data;
    if (d?.quoteId && d.expiredTimestamp && d.servicePriceAsk && d.servicePriceBid) {
      receive({ id: d.quoteId, expiredTimestamp: d.expiredTimestamp, ask: d.servicePriceAsk, bid: d.servicePriceBid });
    }
  };

  onClientMount($quote, () => {
    watchExpiry($quote.get().quote);
    const close = subscribeChannel(
      'quotes',
      (event) => {
        const next = event.type === 'quote' ? quoteOf(event.payload) : undefined;
        if (next) receive(next);
      },
      {
        onSubscribed: () => $quote.setKey('subscribeError', false),
        onFailed: () => $quote.setKey('subscribeError', true),
      },
    );
    return () => {
      close();
      clearTimeout(expiry);
    };
  });

  return { $quote, ensureLive };
}
