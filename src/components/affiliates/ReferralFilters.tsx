import { REFERRAL_SORTS, type ReferralSort, type SortDirection } from '../../lib/shared/affiliates.ts';
import { hasFilters, isBackwards } from './query.ts';
import type { T } from './types.ts';
import type { ReferralsState } from './use-referrals.ts';

// The table's filters (active in the last 30 days, has traded, registered between two days), each
// applied as it changes; and on phones, where the rows are cards without column headers, the
// order as two choices instead of header clicks.

export function ReferralFilters({ t, state }: { t: T; state: ReferralsState }) {
  const { filters } = state.query;
  const backwards = isBackwards(filters);
  return (
    <fieldset className="aff-filters" data-testid="referral-filters">
      <legend className="visually-hidden">{t('affiliates.filters.legend')}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={Boolean(filters.active)}
          onChange={(event) => state.filter({ active: event.currentTarget.checked })}
        />
        {t('affiliates.filters.active')}
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={Boolean(filters.traded)}
          onChange={(event) => state.filter({ traded: event.currentTarget.checked })}
        />
        {t('affiliates.filters.traded')}
      </label>
      <div className="aff-dates">
        <div className="field">
          <label htmlFor="aff-from">{t('affiliates.filters.from')}</label>
          <input
            id="aff-from"
            className="input"
            type="date"
            value={filters.from ?? ''}
            onChange={(event) => state.filter({ from: event.currentTarget.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="aff-to">{t('affiliates.filters.to')}</label>
          <input
            id="aff-to"
            className="input"
            type="date"
            value={filters.to ?? ''}
            aria-invalid={backwards || undefined}
            aria-describedby={backwards ? 'aff-to-error' : undefined}
            onChange={(event) => state.filter({ to: event.currentTarget.value })}
          />
        </div>
      </div>
      {backwards && (
        <p className="field-error aff-range-error" id="aff-to-error" role="alert">
          {t('affiliates.filters.backwards')}
        </p>
      )}
      <div className="aff-filter-actions">
        <MobileSort t={t} state={state} />
        {hasFilters(filters) && (
          <button type="button" className="btn btn-ghost" onClick={state.clearFilters}>
            {t('affiliates.filters.clear')}
          </button>
        )}
      </div>
    </fieldset>
  );
}

function MobileSort({ t, state }: { t: T; state: ReferralsState }) {
  const { sortBy, sortDir } = state.query;
  return (
    <div className="aff-mobile-sort">
      <div className="field">
        <label htmlFor="aff-sort-by">{t('affiliates.sort.by')}</label>
        <select
          id="aff-sort-by"
          className="input"
          value={sortBy}
          onChange={(event) => state.order(event.currentTarget.value as ReferralSort, sortDir)}
        >
          {REFERRAL_SORTS.map((column) => (
            <option key={column} value={column}>
              {t(`affiliates.column.${column}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="aff-sort-dir">{t('affiliates.sort.direction')}</label>
        <select
          id="aff-sort-dir"
          className="input"
          value={sortDir}
          onChange={(event) => state.order(sortBy, event.currentTarget.value as SortDirection)}
        >
          <option value="up">{t('affiliates.sort.up')}</option>
          <option value="down">{t('affiliates.sort.down')}</option>
        </select>
      </div>
    </div>
  );
}
