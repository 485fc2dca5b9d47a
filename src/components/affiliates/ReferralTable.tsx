import { Fragment } from 'react';
import type { ReferralSort } from '../../lib/shared/affiliates.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { ReferralRow } from '../../lib/shared/views/affiliates.ts';
import { RetryNote } from '../RetryNote.tsx';
import { Earned, Person, Registered, trades, volume } from './cells.tsx';
import { Pager } from './Pager.tsx';
import { hasFilters } from './query.ts';
import { ReferralFilters } from './ReferralFilters.tsx';
import { Tier2List } from './Tier2List.tsx';
import type { T } from './types.ts';
import type { ReferralsState } from './use-referrals.ts';
import type { Tier2State } from './use-tier2.ts';

// "My referrals" (spec sections 2 and 8): the affiliate's tier-1 referrals a page at a time, each
// column header a sort button (aria-sort on the sorted one), the filters above, and under a row
// whose person brought others the list of those (tier 2) when its button opens it. On phones the
// rows are cards labelled from data-label (affiliates.css).

const COLUMNS: { sort: ReferralSort; numeric: boolean }[] = [
  { sort: 'username', numeric: false },
  { sort: 'registered', numeric: false },
  { sort: 'trades', numeric: true },
  { sort: 'volume', numeric: true },
  { sort: 'earnings', numeric: true },
];

interface Props {
  t: T;
  locale: Locale;
  lang: string;
  state: ReferralsState;
  tier2: Tier2State;
}

export function ReferralTable(props: Props) {
  const { t, state } = props;
  const rows = state.shown?.data ?? [];
  const meta = state.shown?.meta;
  return (
    <section className="card aff-referrals" aria-labelledby="aff-table-title" data-testid="referrals">
      <h2 className="h3" id="aff-table-title">
        {t('affiliates.table.title')}
      </h2>
      <ReferralFilters t={t} state={state} />
      {state.error && (
        <RetryNote
          className="alert alert-error"
          role="alert"
          message={state.error.message}
          retry={t('affiliates.retry')}
          onRetry={state.retry}
        />
      )}
      <p className="visually-hidden" role="status">
        {state.loading ? t('affiliates.loading') : ''}
      </p>
      {rows.length > 0 ? (
        <div className="aff-table-wrap" aria-busy={state.loading || undefined}>
          <table className="aff-table" data-testid="referral-table">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <SortHeader key={column.sort} {...props} column={column} />
                ))}
                <th scope="col" className="aff-num">
                  {t('affiliates.column.referrals')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.id} {...props} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        !state.loading && !state.error && <Empty t={t} filtered={hasFilters(state.query.filters)} />
      )}
      {meta && meta.totalPages > 1 && (
        <Pager t={t} page={meta.page} pages={meta.totalPages} busy={state.loading} onGo={state.goTo} />
      )}
    </section>
  );
}

function SortHeader({ t, state, column }: Props & { column: (typeof COLUMNS)[number] }) {
  const { sortBy, sortDir } = state.query;
  const sorted = sortBy === column.sort;
  const direction = sortDir === 'up' ? 'ascending' : 'descending';
  return (
    <th scope="col" className={column.numeric ? 'aff-num' : undefined} aria-sort={sorted ? direction : undefined}>
      <button type="button" className="aff-sort" data-sort={column.sort} onClick={() => state.sort(column.sort)}>
        {t(`affiliates.column.${column.sort}`)}
        <span className="aff-sort-mark" aria-hidden="true" data-direction={sorted ? sortDir : undefined}>
          {sorted ? (sortDir === 'up' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function Row({ t, locale, lang, tier2, row }: Props & { row: ReferralRow }) {
  const open = tier2.open.has(row.id);
  const panel = `aff-tier2-${row.id}`;
  return (
    <Fragment>
      <tr data-testid="referral-row" data-username={row.username}>
        <td data-label={t('affiliates.column.username')}>
          <Person t={t} locale={locale} row={row} />
        </td>
        <td data-label={t('affiliates.column.registered')}>
          <Registered lang={lang} row={row} />
        </td>
        <td className="aff-num" data-label={t('affiliates.column.trades')}>
          {trades(row, lang)}
        </td>
        <td className="aff-num" data-label={t('affiliates.column.volume')}>
          <bdi>{volume(row, lang)}</bdi>
        </td>
        <td className="aff-num" data-label={t('affiliates.column.earnings')}>
          <Earned t={t} lang={lang} row={row} />
        </td>
        <td className="aff-num" data-label={t('affiliates.column.referrals')}>
          {row.referralsCount > 0 ? (
            <button
              type="button"
              className="btn btn-secondary aff-expand"
              aria-expanded={open}
              aria-controls={open ? panel : undefined}
              aria-label={t('affiliates.tier2.toggle', { username: row.username, count: row.referralsCount })}
              onClick={() => tier2.toggle(row.id)}
            >
              {row.referralsCount}
              <span className="aff-chevron" aria-hidden="true" />
            </button>
          ) : (
            <span className="muted">0</span>
          )}
        </td>
      </tr>
      {open && (
        <tr className="aff-tier2-row" id={panel}>
          <td colSpan={COLUMNS.length + 1}>
            <Tier2List t={t} locale={locale} lang={lang} referral={row} state={tier2} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function Empty({ t, filtered }: { t: T; filtered: boolean }) {
  return (
    <div className="aff-empty" data-testid="referrals-empty">
      <p>{t(filtered ? 'affiliates.empty.filteredTitle' : 'affiliates.empty.title')}</p>
      <p className="muted">{t(filtered ? 'affiliates.empty.filteredText' : 'affiliates.empty.text')}</p>
    </div>
  );
}
