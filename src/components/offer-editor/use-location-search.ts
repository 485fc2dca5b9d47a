import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { EditorLocation } from './types.ts';
import { type EditorContextValue, localized } from './ui.tsx';

// The place search of a cash-in-person offer: GET /location/search once the text is longer than
// 2 characters and the typing has paused for 500 ms (spec sections 5 and 9).

const MIN_CHARS = 3;
const DEBOUNCE_MS = 500;

export type LocationSearch =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; places: EditorLocation[] }
  | { state: 'error' };

export function useLocationSearch(query: string, locale: string): LocationSearch {
  const [search, setSearch] = useState<LocationSearch>({ state: 'idle' });
  useEffect(() => {
    const text = query.trim();
    if (text.length < MIN_CHARS) {
      setSearch({ state: 'idle' });
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      setSearch({ state: 'loading' });
      const result = await apiGet<EditorLocation[]>(
        localized(`/location/search?q=${encodeURIComponent(text)}`, locale),
        {
          signal: abort.signal,
        },
      );
      if (abort.signal.aborted) return;
      setSearch(result.ok && result.data ? { state: 'done', places: result.data } : { state: 'error' });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, locale]);
  return search;
}

/** What the search is doing, for the status line under the field. */
export function searchStatus(t: EditorContextValue['t'], search: LocationSearch): string {
  if (search.state === 'loading') return t('offerEditor.location.searching');
  if (search.state === 'error') return t('offerEditor.location.failed');
  if (search.state === 'done' && search.places.length === 0) return t('offerEditor.noMatches');
  return '';
}
