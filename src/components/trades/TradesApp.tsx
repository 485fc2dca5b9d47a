import { useMemo } from 'react';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { TabBar } from '../TabBar.tsx';
import { activeRow, pastRow, TradeRow, TradeTableHead } from './TradeRow.tsx';
import {
  type ActiveTrade,
  PAST_STATUSES,
  PAST_TYPES,
  type PastPage,
  type PastStatus,
  type PastType,
  pastHref,
} from './types.ts';
import { type PastTrades, useActiveTrades, usePastTrades } from './use-trades.ts';

// The trades screen (spec section 2: active trades table, past trades): the active table refreshes
// when a trade of the reader's changes (and every 30 s) and highlights what waits on the reader
// (meta.alarmedTrades); past trades have the bought/sold tabs and a status filter. Spec section 4, "Lists": changing filter or tab resets the
// page and reloads; further pages append. Every control is also a link, so without JavaScript the
// page itself answers (pages 1…N rendered by the server).

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

type T = ReturnType<typeof islandTranslator>;

interface Rows {
  t: T;
  lang: string;
  locale: Locale;
  date: Intl.DateTimeFormat;
}

export default function TradesApp(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const { lang, locale } = props;
  const date = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }), [lang]);
  const { active, alarmed } = useActiveTrades(props.active, props.alarmed, locale);
  const pastTrades = usePastTrades(props);
  const rows: Rows = { t, lang, locale, date };
  return (
    <div className="trades-app">
      <ActiveTrades rows={rows} active={active} alarmed={alarmed} />
      <PastTradesSection rows={rows} base={props.base} state={pastTrades} />
    </div>
  );
}

function ActiveTrades({ rows, active, alarmed }: { rows: Rows; active: ActiveTrade[]; alarmed: Set<string> }) {
  const { t } = rows;
  return (
    <section className="card trades-card" aria-labelledby="active-trades-title" data-testid="active-trades">
      <h2 className="h3" id="active-trades-title">
        {t('trades.active.title')}
      </h2>
      {active.length === 0 ? (
        <div className="empty-state" data-empty>
          <p className="muted">{t('trades.active.empty')}</p>
          <a className="btn btn-secondary" href={localizePath(rows.locale, '/buy-bitcoin')}>
            {t('trades.empty.browse')}
          </a>
        </div>
      ) : (
        <table className="trades-table">
          <TradeTableHead t={t} table="active" />
          <tbody>
            {active.map((trade) => (
              <TradeRow
                key={trade.hash}
                {...rows}
                table="active"
                trade={activeRow(trade)}
                alarm={alarmed.has(trade.hash)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PastTradesSection({ rows, base, state }: { rows: Rows; base: string; state: PastTrades }) {
  const { t } = rows;
  const { type, status, past, loading, failed, choose } = state;
  return (
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
        href={(value) => pastHref(base, value, status)}
        text={(value) => t(`trades.past.${value}`)}
        onChoose={(event, value) => choose(event, value, status)}
      />
      <TabBar
        kind="pill"
        label={t('trades.past.filter')}
        values={PAST_STATUSES}
        current={status}
        href={(value) => pastHref(base, type, value)}
        text={(value) => t(`trades.past.filter.${value}`)}
        onChoose={(event, value) => choose(event, type, value)}
      />
      {failed && (
        <p className="alert alert-error" role="alert">
          {t('trades.past.failed')}
        </p>
      )}
      {past.items.length === 0 && !loading && !failed ? (
        <div className="empty-state" data-empty>
          <p className="muted">{t('trades.past.empty')}</p>
          <a className="text-link" href={localizePath(rows.locale, '/buy-bitcoin')}>
            {t('trades.empty.browse')}
          </a>
        </div>
      ) : (
        <table className="trades-table" aria-busy={loading || undefined}>
          <TradeTableHead t={t} table="past" />
          <tbody>
            {past.items.map((trade) => (
              <TradeRow key={trade.id} {...rows} table="past" trade={pastRow(trade)} />
            ))}
          </tbody>
        </table>
      )}
      {loading && <p className="muted trades-loading">{t('trades.loading')}</p>}
      {!loading && past.page < past.lastPage && (
        <a
          className="btn btn-secondary trades-more"
          href={pastHref(base, type, status, past.page + 1)}
          onClick={state.more}
          data-testid="past-more"
        >
          {t('trades.past.more')}
        </a>
      )}
    </section>
  );
}
