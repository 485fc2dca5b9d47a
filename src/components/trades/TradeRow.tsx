import type { ReactNode } from 'react';
import { formatFiat } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { type ActiveTrade, type PastTrade, STATUS_LABELS } from './types.ts';

// One row of the trades tables (spec section 2), active and past alike: partner, the reader's
// role (active only), amounts, payment method, status, when it started (active) or ended (past),
// and the link that opens the trade. Under 576 px each cell shows its column's name (CSS).

type Translate = (key: string, params?: Record<string, string | number>) => string;

export type TradeTable = 'active' | 'past';
type Column = 'partner' | 'role' | 'amount' | 'method' | 'status' | 'started' | 'ended';

const COLUMNS: Record<TradeTable, Column[]> = {
  active: ['partner', 'role', 'amount', 'method', 'status', 'started'],
  past: ['partner', 'amount', 'method', 'status', 'ended'],
};

/** What a row shows, from either list's shape (activeRow, pastRow). */
export type TradeRowData = Pick<
  ActiveTrade,
  'partner' | 'status' | 'fiatAmount' | 'currency' | 'cryptoAmount' | 'cryptoCurrency' | 'paymentMethod'
> & {
  id: string;
  role?: ActiveTrade['role'];
  /** Unix seconds: when the trade started (active) or ended (past). */
  at: number;
};

export const activeRow = (trade: ActiveTrade): TradeRowData => ({
  ...trade,
  id: trade.hash,
  at: trade.startedAt,
});

export const pastRow = (trade: PastTrade): TradeRowData => ({
  ...trade,
  partner: trade.partner.username,
  fiatAmount: trade.fiatAmountRequested,
  at: trade.endedAt ?? trade.startedAt,
});

/** The header of a table: its columns in order, then the unlabelled "open" link's. */
export function TradeTableHead({ t, table }: { t: Translate; table: TradeTable }) {
  return (
    <thead>
      <tr>
        {COLUMNS[table].map((column) => (
          <th key={column} scope="col" className={column === 'amount' ? 'trades-num' : undefined}>
            {t(`trades.col.${column}`)}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">{t('trades.open')}</span>
        </th>
      </tr>
    </thead>
  );
}

export function TradeRow({
  t,
  lang,
  locale,
  date,
  table,
  trade,
  alarm = false,
}: {
  t: Translate;
  lang: string;
  locale: Locale;
  date: Intl.DateTimeFormat;
  table: TradeTable;
  trade: TradeRowData;
  /** An active trade that waits on the reader (meta.alarmedTrades): highlighted, with a note. */
  alarm?: boolean;
}) {
  const active = table === 'active';
  const statusLabel = (STATUS_LABELS as readonly string[]).includes(trade.status)
    ? t(`trades.status.${trade.status}`)
    : trade.status;
  const cells: Record<Column, ReactNode> = {
    partner: (
      <a className="text-link" href={localizePath(locale, `/profile/${trade.partner}`)}>
        <bdi>{trade.partner}</bdi>
      </a>
    ),
    role: t(trade.role === 'seller' ? 'trades.role.seller' : 'trades.role.buyer'),
    amount: (
      <span className="trades-amount">
        <bdi>{formatFiat(trade.fiatAmount, trade.currency, lang)}</bdi>
        <small className="muted">
          <bdi>{formatCryptoAmount(trade.cryptoAmount, trade.cryptoCurrency, lang)}</bdi>
        </small>
      </span>
    ),
    method: <bdi>{trade.paymentMethod}</bdi>,
    status: (
      <>
        <span className={`trades-status trades-status-${trade.status}`}>{statusLabel}</span>
        {alarm && <span className="trades-alarm-note">{t('trades.active.alarm')}</span>}
      </>
    ),
    started: <time dateTime={new Date(trade.at * 1000).toISOString()}>{date.format(trade.at * 1000)}</time>,
    ended: date.format(trade.at * 1000),
  };
  return (
    <tr
      className={alarm ? 'trades-alarm' : undefined}
      data-trade={trade.id}
      data-alarmed={alarm || undefined}
      data-status={active ? undefined : trade.status}
    >
      {COLUMNS[table].map((column) => (
        <td
          key={column}
          data-label={t(`trades.col.${column}`)}
          className={column === 'amount' ? 'trades-num' : undefined}
        >
          {cells[column]}
        </td>
      ))}
      <td>
        <a
          className={`btn ${active ? 'btn-secondary' : 'btn-ghost'} trades-open`}
          href={localizePath(locale, `/trade/${trade.id}`)}
        >
          {t('trades.open')}
        </a>
      </td>
    </tr>
  );
}
