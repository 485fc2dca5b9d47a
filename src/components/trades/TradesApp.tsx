import { useEffect, useMemo, useRef, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { TabBar } from '../TabBar.tsx';
import { activeRow, pastRow, TradeRow, TradeTableHead } from './TradeRow.tsx';
import {
  type ActiveTrade,
  PAST_STATUSES,
  PAST_TYPES,
  type PastPage,
  type PastStatus,
  type PastTrade,
  type PastType,
  pastHref,
  toActiveTrade,
} from './types.ts';

// The trades screen (spec section 2: active trades table, past trades): the active table refreshes
// when a trade of the reader's changes (and every 30 s) and highlights what waits on the reader
// (meta.alarmedTrades); past trades have the bought/sold tabs and a status filter. Spec section 4, "Lists": changing filter or tab resets the
// page and reloads; further pages append. Every control is also a link, so without JavaScript the
// page itself answers (pages 1…N rendered by the server).

const REFRESH_MS = 30_000;

type Props = {
  locale: Locale;
  lang: string;
  username: string;
  messages: IslandMessages;
  active: ActiveTrade[];
  alarmed: string[];
  past: PastPage;
  type: PastType;
  status: PastStatus;
  /** The page's own path (localized), for links. */
  base: string;
};

export default function TradesApp(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const { lang, locale } = props;
  const date = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }), [lang]);
  const [active, setActive] = useState(props.active);
  const [alarmed, setAlarmed] = useState(() => new Set(props.alarmed));
  const [type, setType] = useState(props.type);
  const [status, setStatus] = useState(props.status);
  const [past, setPast] = useState(props.past);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  // The newest request wins: a slow answer for a filter left behind is dropped.
  const request = useRef(0);

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

  const load = async (nextType: PastType, nextStatus: PastStatus, page: number) => {
    const id = ++request.current;
    setLoading(true);
    setFailed(false);
    const query = new URLSearchParams({ type: nextType, status: nextStatus, page: String(page), locale });
    const answer = await apiGet<PastTrade[]>(
      `/rest/v1/users/${encodeURIComponent(props.username)}/past-trades?${query}`,
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
  const choose = (event: React.MouseEvent, nextType: PastType, nextStatus: PastStatus) => {
    event.preventDefault();
    setType(nextType);
    setStatus(nextStatus);
    setPast({ items: [], page: 1, lastPage: 1 });
    window.history.replaceState(null, '', pastHref(props.base, nextType, nextStatus));
    void load(nextType, nextStatus, 1);
  };

  const more = (event: React.MouseEvent) => {
    event.preventDefault();
    if (!loading) void load(type, status, past.page + 1);
  };

  return (
    <div className="trades-app">
      <section className="card trades-card" aria-labelledby="active-trades-title" data-testid="active-trades">
        <h2 className="h3" id="active-trades-title">
          {t('trades.active.title')}
        </h2>
        {active.length === 0 ? (
          <p className="muted">{t('trades.active.empty')}</p>
        ) : (
          <table className="trades-table">
            <TradeTableHead t={t} table="active" />
            <tbody>
              {active.map((trade) => (
                <TradeRow
                  key={trade.hash}
                  t={t}
                  lang={lang}
                  locale={locale}
                  date={date}
                  table="active"
                  trade={activeRow(trade)}
                  alarm={alarmed.has(trade.hash)}
                />
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section
        className="card trades-card"
        id="past-trades"
        aria-labelledby="past-trades-title"
        data-testid="past-trades"
      >
        <h2 className="h3" id="past-trades-title">
          {t('trades.past.title')}
        </h2>
        <TabBar
          kind="tab"
          label={t('trades.past.tabs')}
          values={PAST_TYPES}
          current={type}
          href={(value) => pastHref(props.base, value, status)}
          text={(value) => t(`trades.past.${value}`)}
          onChoose={(event, value) => choose(event, value, status)}
        />
        <TabBar
          kind="pill"
          label={t('trades.past.filter')}
          values={PAST_STATUSES}
          current={status}
          href={(value) => pastHref(props.base, type, value)}
          text={(value) => t(`trades.past.filter.${value}`)}
          onChoose={(event, value) => choose(event, type, value)}
        />
        {failed && (
          <p className="alert alert-error" role="alert">
            {t('trades.past.failed')}
          </p>
        )}
        {past.items.length === 0 && !loading && !failed ? (
          <p className="muted" data-empty>
            {t('trades.past.empty')}
          </p>
        ) : (
          <table className="trades-table" aria-busy={loading || undefined}>
            <TradeTableHead t={t} table="past" />
            <tbody>
              {past.items.map((trade) => (
                <TradeRow
                  key={trade.id}
                  t={t}
                  lang={lang}
                  locale={locale}
                  date={date}
                  table="past"
                  trade={pastRow(trade)}
                />
              ))}
            </tbody>
          </table>
        )}
        {loading && <p className="muted trades-loading">{t('trades.loading')}</p>}
        {!loading && past.page < past.lastPage && (
          <a
            className="btn btn-secondary trades-more"
            href={pastHref(props.base, type, status, past.page + 1)}
            onClick={more}
            data-testid="past-more"
          >
            {t('trades.past.more')}
          </a>
        )}
      </section>
    </div>
  );
}
