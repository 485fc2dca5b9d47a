import { useCallback, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { ReferralRow, ReferralsMeta } from '../../lib/shared/views/affiliates.ts';
import { inLocale } from './api.ts';
import type { LoadError, T } from './types.ts';

// The tier-2 lists under the table's rows (spec section 8 "tier2 per tier-1 user, loading ids"):
// which rows are open, the people each one brought (read when first opened, kept when closed,
// 50 a page with "more"), the ids whose list is loading and a failed list's code and message.

export interface Tier2List {
  rows: ReferralRow[];
  page: number;
  totalPages: number;
}

export function useTier2(locale: Locale, t: T) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [lists, setLists] = useState<Readonly<Record<string, Tier2List>>>({});
  const [loadingIds, setLoadingIds] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<Readonly<Record<string, LoadError>>>({});

  const load = useCallback(
    async (id: string, page: number) => {
      setLoadingIds((ids) => new Set(ids).add(id));
      setErrors(({ [id]: _, ...others }) => others);
      const path = `/rest/v1/users/${encodeURIComponent(id)}/referrals/tier2?page=${page}`;
      const answer = await apiGet<ReferralRow[]>(inLocale(locale, path));
      setLoadingIds((ids) => {
        const next = new Set(ids);
        next.delete(id);
        return next;
      });
      const meta = answer.meta as unknown as ReferralsMeta | undefined;
      if (answer.ok && answer.data && meta) {
        const rows = answer.data;
        setLists((known) => ({
          ...known,
          [id]: { rows: page === 1 ? rows : [...(known[id]?.rows ?? []), ...rows], page, totalPages: meta.totalPages },
        }));
      } else {
        const first = answer.errors[0];
        setErrors((known) => ({
          ...known,
          [id]: { code: first?.code ?? 'HTTP_ERROR', message: first?.message || t('affiliates.tier2.failed') },
        }));
      }
    },
    [locale, t],
  );

  const toggle = (id: string) => {
    const opening = !open.has(id);
    setOpen((ids) => {
      const next = new Set(ids);
      if (opening) next.add(id);
      else next.delete(id);
      return next;
    });
    if (opening && !lists[id] && !loadingIds.has(id)) void load(id, 1);
  };

  return {
    open,
    lists,
    loadingIds,
    errors,
    toggle,
    /** The list's next page ("more"), or again the page that failed ("retry"). */
    next: (id: string) => void load(id, (lists[id]?.page ?? 0) + 1),
  };
}

export type Tier2State = ReturnType<typeof useTier2>;
