import type { Config } from '../../config.ts';
import type { PriceFeed } from './price-feed.ts';
import { createSimulatedPriceFeed } from './simulated.ts';
import { createTickerPriceFeed, type TickerLog } from './ticker.ts';

/** The feed `PRICE_FEED` names; the ticker polls `PRICE_FEED_URL` every `PRICE_TICK_SECONDS`. */
export function createPriceFeed(
  config: Pick<Config, 'PRICE_FEED' | 'PRICE_FEED_URL' | 'PRICE_TICK_SECONDS'>,
  log: TickerLog,
): PriceFeed {
  if (config.PRICE_FEED === 'ticker') {
    // readConfig already refuses ticker without a URL; this keeps the types honest.
    if (!config.PRICE_FEED_URL) throw new Error('PRICE_FEED=ticker needs PRICE_FEED_URL');
    return createTickerPriceFeed({ url: config.PRICE_FEED_URL, pollSeconds: config.PRICE_TICK_SECONDS, log });
  }
  return createSimulatedPriceFeed({
    tickSeconds: config.PRICE_TICK_SECONDS,
    onListenerError: (error) => log.error('Price feed: a tick listener failed', error),
  });
}
