import { useCallback, useEffect, useRef, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { ReferralFilters, ReferralSort, SortDirection } from '../../lib/shared/affiliates.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { ReferralRow, ReferralsMeta, ReferralsPage } from '../../lib/shared/views/affiliates.ts';
import { inLocale } from './api.ts';
import { FIRST_QUERY, isBackwards, type ReferralQuery, searchOf, sortedBy } from './query.ts';
import type { LoadError, T } from './types.ts';

// The referral table's state (spec section 8 "Referral table"): the page shown, the question that
// asked for it, whether a load is running, and a failed load's code and message. Only the newest
// question's answer is shown: a quick second click never shows the first click's rows.

export function useReferrals(username: string, locale: Locale, initial: ReferralsPage | null, t: T) {
  const [query, setQuery] = useState<ReferralQuery>(() => (initial ? queryOf(initial.meta) : FIRST_QUERY));
  const [shown, setShown] = useState<ReferralsPage | null>(initial);
  const [loading, setLoading] = useState(initial === null);
  const [error, setError] = useState<LoadError | null>(null);
  const latest = useRef(0);

  const load = useCallback(
    async (next: ReferralQuery) => {
      const ticket = ++latest.current;
      setQuery(next);
      setError(null);
      if (isBackwards(next.filters)) {
        setLoading(false);
        return;
      }
      setLoading(true);
      const path = `/rest/v1/users/${encodeURIComponent(username)}/referrals?${searchOf(next)}`;
      const answer = await apiGet<ReferralRow[]>(inLocale(locale, path));
      if (ticket !== latest.current) return;
      setLoading(false);
      if (answer.ok && answer.data && answer.meta)
        setShown({ data: answer.data, meta: answer.meta as unknown as ReferralsMeta });
      else
        setError({
          code: answer.errors[0]?.code ?? 'HTTP_ERROR',
          message: answer.errors[0]?.message || t('affiliates.error.load'),
        });
    },
    [username, locale, t],
  );

  // Someone who just joined: the page had no table to read, so the island asks for it.
  const unread = useRef(initial === null);
  useEffect(() => {
    if (!unread.current) return;
    unread.current = false;
    void load(FIRST_QUERY);
  }, [load]);

  return {
    query,
    shown,
    loading,
    error,
    /** A column header's click: that column, or the other direction of it. */
    sort: (column: ReferralSort) => void load(sortedBy(query, column)),
    /** The phone's two choices: this column in this direction. */
    order: (sortBy: ReferralSort, sortDir: SortDirection) => void load({ ...query, page: 1, sortBy, sortDir }),
    filter: (changes: Partial<ReferralFilters>) =>
      void load({ ...query, page: 1, filters: withChanges(query.filters, changes) }),
    clearFilters: () => void load({ ...query, page: 1, filters: {} }),
    goTo: (page: number) => void load({ ...query, page }),
    retry: () => void load(query),
  };
}

export type ReferralsState = ReturnType<typeof useReferrals>;

const queryOf = (meta: ReferralsMeta): ReferralQuery => ({
  page: meta.page,
  sortBy: meta.sortBy,
  sortDir: meta.sortDir,
  filters: meta.filters,
});

/** The filters with `changes` applied; a cleared one (false, empty day) leaves the question. */
function withChanges(filters: ReferralFilters, changes: Partial<ReferralFilters>): ReferralFilters {
  const next: ReferralFilters = { ...filters, ...changes };
  for (const key of Object.keys(next) as (keyof ReferralFilters)[]) if (!next[key]) delete next[key];
  return next;
}
