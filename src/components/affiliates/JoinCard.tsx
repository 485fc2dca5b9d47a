import { tIsolated } from '../../lib/isolated.tsx';
import { formatPercent } from '../../lib/shared/format.ts';
import { formatLimit } from './format.ts';
import type { T } from './types.ts';
import type { SummaryState } from './use-summary.ts';

// The invitation for a signed-in person who is not an affiliate yet: what the programme pays (of
// the escrow fee, per tier), from when earnings move to the wallet, and the button that joins.

export function JoinCard({ t, lang, state }: { t: T; lang: string; state: SummaryState }) {
  const { summary } = state;
  return (
    <section className="card aff-join" aria-labelledby="aff-join-title" data-testid="affiliate-invitation">
      <h2 className="h3" id="aff-join-title">
        {t('affiliates.join.title')}
      </h2>
      <p>{t('affiliates.join.lead')}</p>
      <ul className="aff-join-rates">
        <li>
          <strong className="aff-rate">{formatPercent(summary.rates.tier1, lang)}</strong>
          <span>{t('affiliates.join.tier1')}</span>
        </li>
        <li>
          <strong className="aff-rate">{formatPercent(summary.rates.tier2, lang)}</strong>
          <span>{t('affiliates.join.tier2')}</span>
        </li>
      </ul>
      <p className="muted">
        {tIsolated(t, 'affiliates.join.payout', {
          btc: formatLimit(summary.minimum.BTC, 'BTC', lang),
          usdt: formatLimit(summary.minimum.USDT, 'USDT', lang),
        })}
      </p>
      {state.joinError && (
        <p className="alert alert-error" role="alert">
          {state.joinError}
        </p>
      )}
      <p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={state.joining}
          aria-busy={state.joining || undefined}
          onClick={() => void state.join()}
        >
          {t(state.joining ? 'affiliates.join.busy' : 'affiliates.join.action')}
        </button>
      </p>
    </section>
  );
}
