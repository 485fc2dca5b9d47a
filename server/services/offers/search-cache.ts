// A short-lived cache of offer searches. Many people open the same few listings (buy bitcoin with
// USD, …); their answer only changes when an offer changes, a price ticks or an owner's presence
// crosses a line. So a search is computed once per time bucket and filters, and thrown away when
// any offer is written. Writers in other processes (the operator CLI) show after one bucket.
// What is kept is the computation itself: requests for the same search while it runs share it.

export interface SearchCache<T> {
  /** The value for `key` in the current bucket, computing it on a miss. */
  get(key: string, bucket: number, compute: () => Promise<T>): Promise<T>;
  /** Forgets everything: an offer was written. */
  invalidate(): void;
}

export function createSearchCache<T>({ maxEntries }: { maxEntries: number }): SearchCache<T> {
  const entries = new Map<string, { bucket: number; value: Promise<T> }>();
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
      // A search still running keeps answering its own callers; anyone after this computes anew.
      entries.clear();
    },
  };
}
