import type { EventBus } from '../../realtime/bus.ts';
import { QUOTES_CHANNEL, type QuoteService } from './quotes.ts';

/**
 * Every new quote (one per price tick, or one asked for between ticks) on the public `quotes`
 * channel as `{ type: 'quote', payload: Quote }`. Returns the function that stops publishing.
 */
export function publishQuotes({ quotes, bus }: { quotes: QuoteService; bus: EventBus }): () => void {
  return quotes.onQuote((quote) => bus.publish(QUOTES_CHANNEL, { type: 'quote', payload: quote }));
}
