import { useCallback, useEffect, useRef, useState } from 'react';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { WebhookDeliveryView } from '../../lib/shared/webhooks.ts';
import { messageOf, webhooksApi } from './api.ts';
import type { Announce, DeliveriesPage, T } from './types.ts';

// The delivery log (issue 21): the pages read so far, newest first, "load more" through
// meta.next, a refresh that reads the first page again, a test event that goes on top, and a
// resend per delivered or failed row. While a row is about to be sent (sending, or pending with
// its next try due within seconds) the first page is read again every few seconds, a bounded
// number of times, so a test event turns delivered on its own.

const POLL_MS = 2_000;
const POLLS = 15;
const SOON_SECONDS = 10;

const dueSoon = (row: WebhookDeliveryView, nowSeconds: number) =>
  row.status === 'sending' || (row.status === 'pending' && (row.nextAttemptAt ?? 0) <= nowSeconds + SOON_SECONDS);

/** The first rows, then those of `older` not among them. */
const merged = (first: WebhookDeliveryView[], older: WebhookDeliveryView[]) => {
  const seen = new Set(first.map((row) => row.id));
  return [...first, ...older.filter((row) => !seen.has(row.id))];
};

const nextOf = (meta: Record<string, unknown> | undefined) => (meta?.next as string | null | undefined) ?? null;

export function useDeliveries(locale: Locale, initial: DeliveriesPage | null, t: T, announce: Announce) {
  const pages = usePages(locale, initial, t);
  const { setRows, setError, refresh } = pages;
  const [testing, setTesting] = useState(false);
  const [resending, setResending] = useState<string | null>(null);
  const [polls, setPolls] = useState(0);

  const sendTest = async () => {
    setTesting(true);
    setError(null);
    const answer = await webhooksApi.test(locale);
    setTesting(false);
    const sent = answer.data;
    if (answer.ok && sent) {
      setRows((shown) => merged([sent], shown));
      setPolls(0);
      announce(t('webhooks.test.sent'));
    } else setError(messageOf(answer, t('webhooks.test.failed')));
  };

  const resend = async (id: string) => {
    setResending(id);
    setError(null);
    const answer = await webhooksApi.resend(locale, id);
    setResending(null);
    const again = answer.data;
    if (answer.ok && again) {
      setRows((shown) => shown.map((row) => (row.id === id ? again : row)));
      setPolls(0);
      announce(t('webhooks.log.resent', { id }));
    } else setError(messageOf(answer, t('webhooks.log.resendFailed')));
  };

  const waiting = pages.rows.some((row) => dueSoon(row, Date.now() / 1000));
  useEffect(() => {
    if (!waiting || pages.loading || polls >= POLLS) return;
    const timer = setTimeout(() => {
      setPolls((count) => count + 1);
      void refresh();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, pages.loading, polls, refresh]);

  return {
    rows: pages.rows,
    next: pages.next,
    loading: pages.loading,
    error: pages.error,
    testing,
    resending,
    refresh: () => {
      setPolls(0);
      void refresh();
    },
    loadMore: () => void pages.loadMore(),
    sendTest: () => void sendTest(),
    resend: (id: string) => void resend(id),
  };
}

export type DeliveriesState = ReturnType<typeof useDeliveries>;

/** The rows read so far and the reads: the first page again (refresh) or the next one. */
function usePages(locale: Locale, initial: DeliveriesPage | null, t: T) {
  const [rows, setRows] = useState<WebhookDeliveryView[]>(initial?.data ?? []);
  const [next, setNext] = useState<string | null>(initial?.next ?? null);
  const [loading, setLoading] = useState<'refresh' | 'more' | null>(initial ? null : 'refresh');
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  /** Whether a later page was read: a refresh then keeps the place "load more" goes on from. */
  const deeper = useRef(false);

  const read = useCallback(
    async (before: string | null) => {
      const ticket = ++latest.current;
      setLoading(before ? 'more' : 'refresh');
      setError(null);
      const answer = await webhooksApi.deliveries(locale, before);
      if (ticket !== latest.current) return;
      setLoading(null);
      const page = answer.data;
      if (!answer.ok || !page) {
        setError(messageOf(answer, t('webhooks.log.failed')));
        return;
      }
      if (before) deeper.current = true;
      // A refresh puts the first page on top; rows of later pages already shown stay below it.
      setRows((shown) => (before ? merged(shown, page) : merged(page, shown)));
      if (before || !deeper.current) setNext(nextOf(answer.meta));
    },
    [locale, t],
  );
  const refresh = useCallback(() => read(null), [read]);

  // Someone who just became a merchant: the page had no log to read, so the island asks for it.
  const unread = useRef(initial === null);
  useEffect(() => {
    if (!unread.current) return;
    unread.current = false;
    void refresh();
  }, [refresh]);

  return { rows, setRows, next, loading, error, setError, refresh, loadMore: () => (next ? read(next) : undefined) };
}
