import { ExchangeRatesError } from './exchange-rates.ts';
import { type CryptoCode, createTickListeners, cryptoCodes } from './price-feed.ts';
import type { TickerFeedOptions } from './ticker.ts';
import { SIMULATED_MARKET } from './walk.ts';

// What the ticker feed keeps between polls, and how it reports trouble.

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

/** The options with their defaults, the prices and the run state of one ticker feed. */
export function createTickerState(options: TickerFeedOptions) {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const state = {} as Record<CryptoCode, CryptoState>;
  for (const crypto of cryptoCodes) {
    const usd = options.initial?.[crypto] ?? SIMULATED_MARKET[crypto].anchor;
    state[crypto] = { usd, updatedAt: startedAt, confirmed: false, suspect: undefined };
  }
  return {
    options,
    now,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxJump: options.maxJump ?? DEFAULT_MAX_JUMP,
    confirmPolls: options.confirmPolls ?? DEFAULT_CONFIRM_POLLS,
    state,
    fiatPerUsd: new Map<string, number>(),
    listeners: createTickListeners((error) => options.log.error('Price feed: a tick listener failed', error)),
    // The trouble last logged per currency, so an outage is one line, not one per poll.
    troubles: new Map<CryptoCode, string>(),
    run: { running: false, timer: undefined as NodeJS.Timeout | undefined, stopping: new AbortController() },
  };
}

export type TickerState = ReturnType<typeof createTickerState>;

export function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof ExchangeRatesError) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return `did not answer within ${timeoutMs} ms`;
  // fetch() says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return `could not be fetched (${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))})`;
}

export function trouble({ troubles, state, options }: TickerState, crypto: CryptoCode, message: string): void {
  if (troubles.get(crypto) === message) return;
  troubles.set(crypto, message);
  const kept = new Date(state[crypto].updatedAt).toISOString();
  options.log.error(`Price feed: ${crypto} rates ${message}; keeping ${state[crypto].usd} USD of ${kept}.`);
}
