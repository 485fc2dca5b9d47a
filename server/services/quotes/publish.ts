import type { EventBus } from '../../realtime/bus.ts';
import { QUOTES_CHANNEL, type QuoteService } from './quotes.ts';
import type { Quote } from './types.ts';

/**
 * Every new quote issued here (one per price tick on the leader, or one asked for between ticks)
 * on the public `quotes` channel as `{ type: 'quote', payload: Quote }`, and every quote heard
 * there, from any process, taken as the newest it may be: so all processes show the tick's quote
 * instead of each issuing its own. Returns the function that stops both.
 */
export function publishQuotes({ quotes, bus }: { quotes: QuoteService; bus: EventBus }): () => void {
  const stopPublishing = quotes.onQuote((quote) => bus.publish(QUOTES_CHANNEL, { type: 'quote', payload: quote }));
  const stopHearing = bus.subscribe(QUOTES_CHANNEL, (event) => quotes.adopt(event.payload as Quote), 'everywhere');
  return () => {
    stopPublishing();
    stopHearing();
  };
}
