import type { TradeView } from '../../lib/shared/views/trades.ts';
import type { T } from './ui.tsx';

// The payer name beside the buyer's verified name, for the seller and moderators of a trade whose
// offer takes payment only from the buyer's own account (decision 112). A bank transfer from
// someone else's account is the classic way a stolen account pays: the seller compares before
// releasing, and the screen says so when the names differ or the identity is not verified.

export function PayerCheck({ check, t }: { check: NonNullable<TradeView['payerCheck']>; t: T }) {
  const tone = check.matches === true ? 'alert-success' : check.matches === false ? 'alert-error' : 'alert-info';
  const verdict =
    check.matches === true
      ? t('trade.payer.matches')
      : check.matches === false
        ? t('trade.payer.differs')
        : t('trade.payer.unverified');
  return (
    <div className={`alert ${tone} payer-check`} role={check.matches === false ? 'alert' : 'status'}>
      <dl className="payer-names">
        <div>
          <dt>{t('trade.payer.given')}</dt>
          <dd>
            <bdi>{check.payerName}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('trade.payer.verified')}</dt>
          <dd>{check.verifiedName ? <bdi>{check.verifiedName}</bdi> : t('trade.payer.none')}</dd>
        </div>
      </dl>
      <p>{verdict}</p>
    </div>
  );
}
