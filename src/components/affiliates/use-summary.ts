import { useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { AffiliatePayout, AffiliateSummary } from '../../lib/shared/views/affiliates.ts';
import { inLocale, newIdempotencyKey } from './api.ts';
import type { T } from './types.ts';

// The summary at the top of the screen and the two things that change it: joining the programme
// (the screen turns into the affiliate's without a reload) and moving the earnings to the wallet
// (one fresh idempotency key per click; the summary is read again after a move).

/** What the last move answered: the amounts it moved, or why it moved nothing. */
export type PayoutResult = { kind: 'moved'; moved: AffiliatePayout['moved'] } | { kind: 'error'; message: string };

export function useSummary(initial: AffiliateSummary, locale: Locale, t: T) {
  const [summary, setSummary] = useState(initial);
  const [joining, setJoining] = useState(false);
  const [joinError, setJoinError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [payout, setPayout] = useState<PayoutResult | null>(null);

  const join = async () => {
    setJoining(true);
    setJoinError(null);
    const answer = await apiPost<AffiliateSummary>(inLocale(locale, '/rest/v1/affiliates/join'));
    setJoining(false);
    if (answer.ok && answer.data) setSummary(answer.data);
    else setJoinError(answer.errors[0]?.message || t('affiliates.join.failed'));
  };

  const refresh = async () => {
    const answer = await apiGet<AffiliateSummary>(inLocale(locale, '/rest/v1/affiliates/summary'));
    if (answer.ok && answer.data) setSummary(answer.data);
  };

  const payOut = async () => {
    setPaying(true);
    setPayout(null);
    const answer = await apiPost<AffiliatePayout>(inLocale(locale, '/rest/v1/affiliates/payout'), {
      idempotency_key: newIdempotencyKey(),
    });
    if (answer.ok && answer.data) {
      setPayout({ kind: 'moved', moved: answer.data.moved });
      await refresh();
    } else {
      setPayout({ kind: 'error', message: answer.errors[0]?.message || t('affiliates.payout.failed') });
    }
    setPaying(false);
  };

  return { summary, join, joining, joinError, payOut, paying, payout };
}

export type SummaryState = ReturnType<typeof useSummary>;
