import type { ReferralFilters, ReferralSort, SortDirection } from '../../lib/shared/affiliates.ts';

// The referral table's question (spec section 7: page, sortBy, sortDir, filters[…]) as the screen
// keeps it and as the API reads it; and what a click on a column header does to it.

export interface ReferralQuery {
  page: number;
  sortBy: ReferralSort;
  sortDir: SortDirection;
  filters: ReferralFilters;
}

/** The API's own default: newest registrations first. */
export const FIRST_QUERY: ReferralQuery = { page: 1, sortBy: 'registered', sortDir: 'down', filters: {} };

export function searchOf(query: ReferralQuery): string {
  const params = new URLSearchParams({ page: String(query.page), sortBy: query.sortBy, sortDir: query.sortDir });
  const { active, traded, from, to } = query.filters;
  if (active) params.set('filters[active]', '1');
  if (traded) params.set('filters[traded]', '1');
  if (from) params.set('filters[from]', from);
  if (to) params.set('filters[to]', to);
  return params.toString();
}

/**
 * The same column again reverses the order; another column starts from its most telling end: names
 * A to Z, figures and dates largest and newest first.
 */
export function sortedBy(query: ReferralQuery, column: ReferralSort): ReferralQuery {
  const sortDir: SortDirection =
    query.sortBy === column ? (query.sortDir === 'up' ? 'down' : 'up') : column === 'username' ? 'up' : 'down';
  return { ...query, page: 1, sortBy: column, sortDir };
}

/** A registered-until day before the registered-from day: nothing to ask the API. */
export const isBackwards = ({ from, to }: ReferralFilters) => Boolean(from && to && from > to);

export const hasFilters = ({ active, traded, from, to }: ReferralFilters) => Boolean(active || traded || from || to);
