import { tIsolated } from '../../lib/isolated.tsx';
import { formatCount } from '../../lib/shared/format.ts';
import type { EarningsView } from '../../lib/shared/views/affiliates.ts';
import { formatCryptoAmount, formatLimit, formatUsd, nonZeroAmounts } from './format.ts';
import type { T } from './types.ts';
import type { SummaryState } from './use-summary.ts';

// The top of the affiliate's screen: what they earned in all and this month (each currency and
// its worth in dollars), what waits to be moved to the wallet with the button that moves it, and
// how many people came through their link and through those people.

export function SummaryCards({ t, lang, state }: { t: T; lang: string; state: SummaryState }) {
  const { summary } = state;
  return (
    <section className="aff-summary" aria-labelledby="aff-summary-title" data-testid="affiliate-summary">
      <h2 className="visually-hidden" id="aff-summary-title" tabIndex={-1}>
        {t('affiliates.summary.label')}
      </h2>
      <article className="card aff-stat" data-stat="earned">
        <h3 className="aff-stat-title">{t('affiliates.summary.earned')}</h3>
        <Earnings t={t} lang={lang} earnings={summary.earned} />
      </article>
      <article className="card aff-stat" data-stat="month">
        <h3 className="aff-stat-title">{t('affiliates.summary.thisMonth')}</h3>
        <Earnings t={t} lang={lang} earnings={summary.thisMonth} />
      </article>
      <Balance t={t} lang={lang} state={state} />
      <article className="card aff-stat" data-stat="people">
        <h3 className="aff-stat-title">{t('affiliates.summary.people')}</h3>
        <dl className="aff-counts">
          <div>
            <dt>{t('affiliates.summary.tier1')}</dt>
            <dd data-count="tier1">{formatCount(summary.tier1Count, lang)}</dd>
          </div>
          <div>
            <dt>{t('affiliates.summary.tier2')}</dt>
            <dd data-count="tier2">{formatCount(summary.tier2Count, lang)}</dd>
          </div>
        </dl>
      </article>
    </section>
  );
}

function Earnings({ t, lang, earnings }: { t: T; lang: string; earnings: EarningsView }) {
  return (
    <div className="aff-amounts">
      <p className="aff-amount">
        <bdi>{formatCryptoAmount(earnings.BTC, 'BTC', lang)}</bdi>
      </p>
      <p className="aff-amount">
        <bdi>{formatCryptoAmount(earnings.USDT, 'USDT', lang)}</bdi>
      </p>
      <p className="muted">{tIsolated(t, 'affiliates.usd', { amount: formatUsd(earnings.usd, lang) })}</p>
    </div>
  );
}

function Balance({ t, lang, state }: { t: T; lang: string; state: SummaryState }) {
  const { summary, payout, paying } = state;
  const minimum = {
    btc: formatLimit(summary.minimum.BTC, 'BTC', lang),
    usdt: formatLimit(summary.minimum.USDT, 'USDT', lang),
  };
  return (
    <article className="card aff-stat aff-balance" data-stat="balance">
      <h3 className="aff-stat-title">{t('affiliates.summary.balance')}</h3>
      <div className="aff-amounts">
        <p className="aff-amount">
          <bdi>{formatCryptoAmount(summary.balance.BTC, 'BTC', lang)}</bdi>
        </p>
        <p className="aff-amount">
          <bdi>{formatCryptoAmount(summary.balance.USDT, 'USDT', lang)}</bdi>
        </p>
      </div>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!summary.canPayOut || paying}
        aria-busy={paying || undefined}
        aria-describedby="aff-payout-minimum"
        onClick={() => void state.payOut()}
      >
        {t(paying ? 'affiliates.payout.busy' : 'affiliates.payout.action')}
      </button>
      <p className="muted aff-hint" id="aff-payout-minimum">
        {tIsolated(t, 'affiliates.payout.minimum', minimum)}
      </p>
      <div aria-live="polite">
        {payout?.kind === 'moved' && (
          <p className="alert alert-success" data-testid="payout-done">
            {tIsolated(t, 'affiliates.payout.done', { amounts: nonZeroAmounts(payout.moved, lang).join(' + ') })}
          </p>
        )}
        {payout?.kind === 'error' && (
          <p className="alert alert-error" data-testid="payout-error">
            {payout.message}
          </p>
        )}
      </div>
    </article>
  );
}
