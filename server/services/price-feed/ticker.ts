import { type ExchangeRates, ExchangeRatesError, parseExchangeRates } from './exchange-rates.ts';
import { type CryptoCode, createTickListeners, cryptoCodes, type PriceFeed, type PriceTick } from './price-feed.ts';
import { SIMULATED_MARKET } from './walk.ts';

// `PRICE_FEED=ticker`: polls an exchange-rates API (exchange-rates.ts) for BTC and USDT. Whatever
// goes wrong — a timeout, an HTTP error, a broken answer, an absurd jump — the feed keeps its last
// good prices, logs once per kind of trouble and tries again on the next poll; it never throws.

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

interface CryptoState {
  usd: number;
  updatedAt: number;
  /** The price came from this source in this process: only then does a big move look absurd. */
  confirmed: boolean;
  /** A run of suspect prices that agree with each other. */
  suspect: { usd: number; polls: number } | undefined;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_JUMP = 0.2;
const DEFAULT_CONFIRM_POLLS = 3;

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof ExchangeRatesError) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return `did not answer within ${timeoutMs} ms`;
  // fetch() says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return `could not be fetched (${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))})`;
}

export function createTickerPriceFeed(options: TickerFeedOptions): TickerPriceFeed {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxJump = options.maxJump ?? DEFAULT_MAX_JUMP;
  const confirmPolls = options.confirmPolls ?? DEFAULT_CONFIRM_POLLS;
  const startedAt = now();
  const state = {} as Record<CryptoCode, CryptoState>;
  for (const crypto of cryptoCodes) {
    const usd = options.initial?.[crypto] ?? SIMULATED_MARKET[crypto].anchor;
    state[crypto] = { usd, updatedAt: startedAt, confirmed: false, suspect: undefined };
  }
  const fiatPerUsd = new Map<string, number>();
  const listeners = createTickListeners((error) => options.log.error('Price feed: a tick listener failed', error));
  // The trouble last logged per currency, so an outage is one line, not one per poll.
  const troubles = new Map<CryptoCode, string>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let stopping = new AbortController();

  const trouble = (crypto: CryptoCode, message: string) => {
    if (troubles.get(crypto) === message) return;
    troubles.set(crypto, message);
    const kept = new Date(state[crypto].updatedAt).toISOString();
    options.log.error(`Price feed: ${crypto} rates ${message}; keeping ${state[crypto].usd} USD of ${kept}.`);
  };

  const fetchRates = async (crypto: CryptoCode): Promise<ExchangeRates | undefined> => {
    const url = new URL(options.url);
    url.searchParams.set('currency', crypto);
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]);
      const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) {
        await res.body?.cancel();
        throw new ExchangeRatesError(`answered HTTP ${res.status}`);
      }
      return parseExchangeRates(await res.text(), crypto);
    } catch (error) {
      if (!stopping.signal.aborted) trouble(crypto, describe(error, timeoutMs));
      return undefined;
    }
  };

  /** Takes the new price unless it is an unconfirmed absurd jump. */
  const accept = (rates: ExchangeRates): boolean => {
    const current = state[rates.crypto];
    if (current.confirmed && Math.abs(rates.usd / current.usd - 1) > maxJump) {
      const agrees = current.suspect && Math.abs(rates.usd / current.suspect.usd - 1) <= maxJump;
      current.suspect = { usd: rates.usd, polls: agrees && current.suspect ? current.suspect.polls + 1 : 1 };
      if (current.suspect.polls < confirmPolls) {
        const percent = Math.round(Math.abs(rates.usd / current.usd - 1) * 100);
        trouble(rates.crypto, `jumped ${percent} % to ${rates.usd} USD in one poll (ignored)`);
        return false;
      }
      options.log.info(`Price feed: ${rates.crypto} at ${rates.usd} USD for ${confirmPolls} polls in a row; adopted.`);
    }
    current.usd = rates.usd;
    current.updatedAt = now();
    current.confirmed = true;
    current.suspect = undefined;
    if (troubles.delete(rates.crypto)) options.log.info(`Price feed: ${rates.crypto} rates are good again.`);
    // Fiat rates follow the bitcoin answer (the deeper market); a currency it lacks keeps its last rate.
    if (rates.crypto === 'BTC') for (const [code, rate] of rates.perUsd) fiatPerUsd.set(code, rate);
    return true;
  };

  const poll = async () => {
    const answers = await Promise.all(cryptoCodes.map(fetchRates));
    let moved = false;
    for (const rates of answers) if (rates && accept(rates)) moved = true;
    if (moved) listeners.emit({ at: now(), usd: { BTC: state.BTC.usd, USDT: state.USDT.usd } });
  };

  const loop = async () => {
    await poll();
    if (!running) return;
    timer = setTimeout(loop, options.pollSeconds * 1000);
    timer.unref();
  };

  return {
    source: 'ticker',
    usdPrice: (crypto) => state[crypto].usd,
    fiatPerUsd: (code) => fiatPerUsd.get(code),
    updatedAt: () => Math.min(...cryptoCodes.map((crypto) => state[crypto].updatedAt)),

    resumeFrom(last: PriceTick) {
      for (const crypto of cryptoCodes) {
        if (state[crypto].confirmed) continue;
        state[crypto].usd = last.usd[crypto];
        state[crypto].updatedAt = last.at;
      }
    },

    onTick: listeners.add,
    poll,

    start() {
      if (running) return;
      running = true;
      stopping = new AbortController();
      void loop();
    },

    stop() {
      running = false;
      clearTimeout(timer);
      stopping.abort();
    },
  };
}
