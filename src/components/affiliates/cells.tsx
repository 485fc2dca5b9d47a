import { tIsolated } from '../../lib/isolated.tsx';
import { formatCount } from '../../lib/shared/format.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import type { ReferralRow } from '../../lib/shared/views/affiliates.ts';
import { formatDay, formatUsd, isoDay, isZero, nonZeroAmounts } from './format.ts';
import type { T } from './types.ts';

// What a referral's row and a tier-2 entry both show: the person (a link to their profile, and
// "active" when seen in the last 30 days), when they registered, their trades and volume, and
// what the affiliate earned through them — the crypto amounts that are not zero, "—" for none.

export function Person({ t, locale, row }: { t: T; locale: Locale; row: ReferralRow }) {
  return (
    <span className="aff-person">
      <a className="text-link aff-username" href={localizePath(locale, `/profile/${encodeURIComponent(row.username)}`)}>
        <bdi>{row.username}</bdi>
      </a>
      {row.isActive && (
        <span className="aff-active" data-active>
          {t('affiliates.active')}
        </span>
      )}
    </span>
  );
}

export const Registered = ({ lang, row }: { lang: string; row: ReferralRow }) => (
  <time dateTime={isoDay(row.registeredAt)}>{formatDay(row.registeredAt, lang)}</time>
);

export const trades = (row: ReferralRow, lang: string) => formatCount(row.completedTrades, lang);

export const volume = (row: ReferralRow, lang: string) => formatUsd(row.tradedVolumeUsd, lang);

export function Earned({ t, lang, row }: { t: T; lang: string; row: ReferralRow }) {
  const amounts = nonZeroAmounts(row.earnings, lang);
  if (amounts.length === 0 && isZero(row.earnings.usd)) return <span className="muted">—</span>;
  return (
    <span className="aff-earned">
      {amounts.map((amount) => (
        <span key={amount}>
          <bdi>{amount}</bdi>
        </span>
      ))}
      <span className="muted">{tIsolated(t, 'affiliates.usd', { amount: formatUsd(row.earnings.usd, lang) })}</span>
    </span>
  );
}
