import { type CryptoCode, cryptoCodes, type PriceFeed, type PriceTick } from './price-feed.ts';
import { pollTicker } from './ticker-poll.ts';
import { createTickerState } from './ticker-state.ts';

// `PRICE_FEED=ticker`: polls an exchange-rates API (exchange-rates.ts) for BTC and USDT. Whatever
// goes wrong — a timeout, an HTTP error, a broken answer, an absurd jump — the feed keeps its last
// good prices, logs once per kind of trouble and tries again on the next poll; it never throws.
// The state lives in ticker-state.ts, one poll in ticker-poll.ts; this runs the polls on a timer.

export interface TickerLog {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface TickerFeedOptions {
  /** The exchange-rates endpoint; `?currency=BTC` and `?currency=USDT` are set on it. */
  url: string;
  pollSeconds: number;
  timeoutMs?: number;
  /** A move larger than this fraction in one poll is suspect (0.2 = 20 %). */
  maxJump?: number;
  /** A suspect price is adopted when this many polls in a row agree on it: the market really moved. */
  confirmPolls?: number;
  /** Prices until the first good poll (or `resumeFrom`). */
  initial?: Record<CryptoCode, number>;
  now?: () => number;
  log: TickerLog;
}

export interface TickerPriceFeed extends PriceFeed {
  /** One poll of both currencies; resolves when it is done, never rejects. */
  poll(): Promise<void>;
}

export function createTickerPriceFeed(options: TickerFeedOptions): TickerPriceFeed {
  const ticker = createTickerState(options);
  const { state, run } = ticker;
  const poll = () => pollTicker(ticker);

  const loop = async () => {
    await poll();
    if (!run.running) return;
    run.timer = setTimeout(loop, options.pollSeconds * 1000);
    run.timer.unref();
  };

  return {
    source: 'ticker',
    usdPrice: (crypto) => state[crypto].usd,
    fiatPerUsd: (code) => ticker.fiatPerUsd.get(code),
    fiatRates: () => Object.fromEntries(ticker.fiatPerUsd),
    updatedAt: () => Math.min(...cryptoCodes.map((crypto) => state[crypto].updatedAt)),

    resumeFrom(last: PriceTick) {
      for (const crypto of cryptoCodes) {
        if (state[crypto].confirmed) continue;
        state[crypto].usd = last.usd[crypto];
        state[crypto].updatedAt = last.at;
      }
    },

    onTick: ticker.listeners.add,
    poll,

    start() {
      if (run.running) return;
      run.running = true;
      run.stopping = new AbortController();
      void loop();
    },

    stop() {
      run.running = false;
      clearTimeout(run.timer);
      run.stopping.abort();
    },
  };
}
