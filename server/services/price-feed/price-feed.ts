// The price feed: what one unit of a crypto currency costs in US dollars right now, and, when the
// source knows them, how many units of each fiat currency a US dollar buys. Fiat prices are derived
// from it (services/reference); history is persisted from its ticks (services/market).

export type CryptoCode = 'BTC' | 'USDT';
export const cryptoCodes: readonly CryptoCode[] = ['BTC', 'USDT'];

export interface PricePoint {
  /** Unix seconds. */
  date: number;
  /** US dollars per unit. */
  usd: number;
}

export interface PriceTick {
  /** Unix milliseconds. */
  at: number;
  usd: Record<CryptoCode, number>;
}

export type PriceSource = 'simulated' | 'ticker';

export interface PriceFeed {
  /** `simulated` invents prices (and may invent the past it missed); `ticker` reports a market. */
  readonly source: PriceSource;
  /** US dollars per one unit of `crypto`, as of the latest good tick. */
  usdPrice(crypto: CryptoCode): number;
  /** Units of the fiat currency `code` per US dollar, when the source quotes it; else undefined. */
  fiatPerUsd(code: string): number | undefined;
  /** Unix milliseconds of the oldest of the current prices: how stale the feed is. */
  updatedAt(): number;
  /** Every fiat rate the source quotes (units per US dollar), for passing them on; absent or empty: none. */
  fiatRates?(): Record<string, number>;
  /**
   * Whether the ticks heard here are this process's to act on once for the deployment (issue quotes,
   * record history): a feed mirroring another process's ticks (shared.ts) answers false while it
   * does not lead. Absent: a feed of one process, which always does.
   */
  leads?(): boolean;
  /** Continue from persisted prices (a restart) instead of the built-in starting prices. */
  resumeFrom(tick: PriceTick): void;
  /** `listener` may answer a promise (recording the tick): its failure is reported like a throw. */
  onTick(listener: TickListener): () => void;
  start(): void;
  stop(): void;
}

/**
 * Told of every tick. What it answers is ignored, except a promise (an asynchronous listener, a
 * database write): the feed does not wait for it, but reports its failure.
 */
export type TickListener = (tick: PriceTick) => unknown;

/**
 * Listeners of a feed, called one by one: a listener that throws or whose promise rejects (a busy
 * database) is reported and the others still run, so a bad tick never stops the feed or the process.
 */
export function createTickListeners(onError: (error: unknown) => void = () => {}) {
  const listeners = new Set<TickListener>();
  return {
    add(listener: TickListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Resolves when every asynchronous listener settled (tests wait for it; feeds need not). */
    emit(tick: PriceTick): Promise<void> {
      const pending: Promise<unknown>[] = [];
      for (const listener of listeners) {
        try {
          const done = listener(tick);
          if (done instanceof Promise) pending.push(done.catch(onError));
        } catch (error) {
          onError(error);
        }
      }
      return Promise.all(pending).then(() => {});
    },
  };
}
