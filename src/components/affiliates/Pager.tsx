import type { T } from './types.ts';

// Previous and next page of the referral table, and where the reader is ("page 2 of 5").

export function Pager({
  t,
  page,
  pages,
  busy,
  onGo,
}: {
  t: T;
  page: number;
  pages: number;
  busy: boolean;
  onGo(page: number): void;
}) {
  return (
    <nav className="aff-pager" aria-label={t('affiliates.page.label')}>
      <button type="button" className="btn btn-secondary" disabled={busy || page <= 1} onClick={() => onGo(page - 1)}>
        {t('affiliates.page.previous')}
      </button>
      <span className="aff-page-of" aria-current="page">
        {t('affiliates.page.of', { page, pages })}
      </span>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy || page >= pages}
        onClick={() => onGo(page + 1)}
      >
        {t('affiliates.page.next')}
      </button>
    </nav>
  );
}
