import type { ReactNode } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { ReferralRow } from '../../lib/shared/views/affiliates.ts';
import { RetryNote } from '../RetryNote.tsx';
import { Earned, Person, Registered, trades, volume } from './cells.tsx';
import type { T } from './types.ts';
import type { Tier2State } from './use-tier2.ts';

// The people one tier-1 referral brought (the affiliate's tier 2), under that referral's row: a
// line each with the same facts as the table, "loading" while asked, an error with a retry.

export function Tier2List({
  t,
  locale,
  lang,
  referral,
  state,
}: {
  t: T;
  locale: Locale;
  lang: string;
  referral: ReferralRow;
  state: Tier2State;
}) {
  const list = state.lists[referral.id];
  const error = state.errors[referral.id];
  const loading = state.loadingIds.has(referral.id);
  return (
    <div className="aff-tier2" data-testid="tier2-list" aria-busy={loading || undefined}>
      <h3 className="aff-tier2-title">{tIsolated(t, 'affiliates.tier2.title', { username: referral.username })}</h3>
      {list && list.rows.length > 0 && (
        <ul className="aff-tier2-items">
          {list.rows.map((row) => (
            <li key={row.id} className="aff-tier2-item" data-testid="tier2-row">
              <Person t={t} locale={locale} row={row} />
              <dl className="aff-facts">
                <Fact label={t('affiliates.column.registered')}>
                  <Registered lang={lang} row={row} />
                </Fact>
                <Fact label={t('affiliates.column.trades')}>{trades(row, lang)}</Fact>
                <Fact label={t('affiliates.column.volume')}>
                  <bdi>{volume(row, lang)}</bdi>
                </Fact>
                <Fact label={t('affiliates.column.earnings')}>
                  <Earned t={t} lang={lang} row={row} />
                </Fact>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {list && list.rows.length === 0 && <p className="muted">{t('affiliates.tier2.empty')}</p>}
      {loading && (
        <p className="muted" role="status">
          {t('affiliates.loading')}
        </p>
      )}
      {error && !loading && (
        <RetryNote
          className="alert alert-error"
          role="alert"
          message={error.message}
          retry={t('affiliates.retry')}
          onRetry={() => state.next(referral.id)}
        />
      )}
      {list && list.page < list.totalPages && !loading && !error && (
        <button type="button" className="btn btn-secondary" onClick={() => state.next(referral.id)}>
          {t('affiliates.tier2.more')}
        </button>
      )}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
