// A short-lived cache of offer searches. Many people open the same few listings (buy bitcoin with
// USD, …); their answer only changes when an offer changes, a price ticks or an owner's presence
// crosses a line. So a search is computed once per time bucket and filters, and thrown away when
// any offer is written. What is kept is the computation itself: requests for the same search while
// it runs share it.
//
// Several processes (issue 17) each keep a cache: a write announces itself on the bus, and every
// process's cache (this one's included) forgets at once. Without REDIS_URL the bus is this
// process's own; writers with a bus of their own (the operator CLI) show after one bucket.

import type { EventBus } from '../../realtime/bus.ts';

/** Not a socket channel: the hub's authoriser admits no `internal:` name. */
export const OFFERS_WRITTEN_CHANNEL = 'internal:offers-written';

export interface SearchCache<T> {
  /** The value for `key` in the current bucket, computing it on a miss. */
  get(key: string, bucket: number, compute: () => Promise<T>): Promise<T>;
  /** Forgets everything, here and in every process sharing `bus`: an offer was written. */
  invalidate(): void;
  /**
   * How many offer writes this process has heard of: a cache of what searches produce (the
   * visitors' listing pages, src/middleware.ts) keys on it, so it forgets with this one.
   */
  generation(): number;
}

export function createSearchCache<T>({ maxEntries, bus }: { maxEntries: number; bus?: EventBus }): SearchCache<T> {
  const entries = new Map<string, { bucket: number; value: Promise<T> }>();
  let generation = 0;
  // A search still running keeps answering its own callers; anyone after this computes anew.
  const forget = () => {
    entries.clear();
    generation += 1;
  };
  bus?.subscribe(OFFERS_WRITTEN_CHANNEL, forget, 'everywhere');
  return {
    get(key, bucket, compute) {
      const found = entries.get(key);
      if (found && found.bucket === bucket) return found.value;
      const value = compute();
      entries.delete(key);
      // Oldest first in insertion order: the first key is the one to drop.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { bucket, value });
      // A failed search is not kept (the next request tries again); its callers get the error.
      void value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    invalidate() {
      // Here at once, whatever the bus does; the other processes when they hear it.
      forget();
      bus?.publish(OFFERS_WRITTEN_CHANNEL, { type: 'offers.written', payload: null });
    },
    generation: () => generation,
  };
}
