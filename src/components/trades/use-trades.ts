import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import {
  type ActiveTrade,
  type PastPage,
  type PastStatus,
  type PastTrade,
  type PastType,
  pastHref,
  toActiveTrade,
} from './types.ts';

// The trades screen's state: the active trades with those that wait on the reader (refreshed on
// a change of the reader's trades and every 30 s), and the past trades with their tab, filter
// and paging (the newest request wins).

const REFRESH_MS = 30_000;

export function useActiveTrades(initial: ActiveTrade[], initialAlarmed: string[], locale: string) {
  const [active, setActive] = useState(initial);
  const [alarmed, setAlarmed] = useState(() => new Set(initialAlarmed));

  useEffect(() => {
    const refresh = async () => {
      const answer = await apiGet<Parameters<typeof toActiveTrade>[0][]>(`/rest/v1/trade/active?locale=${locale}`);
      if (!answer.ok || !answer.data) return;
      setActive(answer.data.map(toActiveTrade));
      setAlarmed(new Set((answer.meta?.alarmedTrades as string[] | undefined) ?? []));
    };
    // The bell's live part relays `system:active_trades_updated` (a trade of the reader's changed);
    // the timer covers a dropped connection.
    const onChange = () => void refresh();
    addEventListener('notifications:active-trades', onChange);
    const timer = window.setInterval(refresh, REFRESH_MS);
    return () => {
      removeEventListener('notifications:active-trades', onChange);
      window.clearInterval(timer);
    };
  }, [locale]);

  return { active, alarmed };
}

export interface PastInit {
  locale: string;
  username: string;
  base: string;
  past: PastPage;
  type: PastType;
  status: PastStatus;
}

export function usePastTrades(init: PastInit) {
  const { locale } = init;
  const [type, setType] = useState(init.type);
  const [status, setStatus] = useState(init.status);
  const [past, setPast] = useState(init.past);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  // The newest request wins: a slow answer for a filter left behind is dropped.
  const request = useRef(0);

  const load = async (nextType: PastType, nextStatus: PastStatus, page: number) => {
    const id = ++request.current;
    setLoading(true);
    setFailed(false);
    const query = new URLSearchParams({ type: nextType, status: nextStatus, page: String(page), locale });
    const answer = await apiGet<PastTrade[]>(
      `/rest/v1/users/${encodeURIComponent(init.username)}/past-trades?${query}`,
    );
    if (id !== request.current) return;
    setLoading(false);
    if (!answer.ok || !answer.data) {
      setFailed(true);
      return;
    }
    const data = answer.data;
    const lastPage = Number(answer.meta?.lastPage ?? page);
    setPast((before) => ({ items: page === 1 ? data : [...before.items, ...data], page, lastPage }));
  };

  /** A new tab or filter: the table clears, paging starts over, the list loads again. */
  const choose = (event: MouseEvent, nextType: PastType, nextStatus: PastStatus) => {
    event.preventDefault();
    setType(nextType);
    setStatus(nextStatus);
    setPast({ items: [], page: 1, lastPage: 1 });
    window.history.replaceState(null, '', pastHref(init.base, nextType, nextStatus));
    void load(nextType, nextStatus, 1);
  };

  const more = (event: MouseEvent) => {
    event.preventDefault();
    if (!loading) void load(type, status, past.page + 1);
  };

  return { type, status, past, loading, failed, choose, more };
}

export type PastTrades = ReturnType<typeof usePastTrades>;
