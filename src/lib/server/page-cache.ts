// A micro-cache for pages that are the same for every visitor who is not signed in: the offer
// listings. Rendering one (four in-process API calls, 50 rows through React) costs tens of
// milliseconds; a popular listing is asked many times a second, and its offers and prices move
// at most every price tick. Signed-in people always get a fresh render (their blocks, country
// and header differ). Nothing personal is stored: the CSRF cookie is added per response after.

export interface CachedPage {
  status: number;
  headers: [string, string][];
  /** The page as UTF-8 bytes: no answer pays for encoding it again. */
  body: Uint8Array;
}

export function createPageCache({
  ttlMs,
  maxEntries,
  now = Date.now,
}: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}) {
  const entries = new Map<string, { at: number; page: CachedPage }>();
  return {
    get(key: string): CachedPage | undefined {
      const found = entries.get(key);
      if (!found) return undefined;
      if (now() - found.at >= ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return found.page;
    },
    set(key: string, page: CachedPage): void {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { at: now(), page });
    },
  };
}
