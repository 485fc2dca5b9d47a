import type { EventBus } from '../../realtime/bus.ts';
import type { PriceFeed } from '../price-feed/price-feed.ts';
import { QUOTES_CHANNEL, type QuoteService } from './quotes.ts';

/**
 * A new quote at every price tick, and every new quote (from a tick or asked for between ticks)
 * on the public `quotes` channel as `{ type: 'quote', payload: Quote }`. Returns the function that
 * disconnects both.
 */
export function publishQuotes({ priceFeed, quotes, bus }: { priceFeed: PriceFeed; quotes: QuoteService; bus: EventBus }) {
  const stopPublishing = quotes.onQuote((quote) => bus.publish(QUOTES_CHANNEL, { type: 'quote', payload: quote }));
  const stopTicks = priceFeed.onTick((tick) => {
    quotes.fromTick(tick);
  });
  return () => {
    stopTicks();
    stopPublishing();
  };
}
