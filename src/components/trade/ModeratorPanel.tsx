import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { DisputeReasonOption, TradeView } from './trade-logic.ts';
import { ConfirmDialog, type T } from './ui.tsx';

// The moderator's view of a dispute (spec section 2): who opened it, why, and the decisions —
// the coins to the buyer or back to the seller — or reopening a finished trade as a dispute.

type Decision = 'buyer' | 'seller' | 'reopen';

export function ModeratorPanel({
  trade,
  reasons,
  t,
  onTrade,
}: {
  trade: TradeView;
  reasons: DisputeReasonOption[];
  t: T;
  onTrade(trade: TradeView): void;
}) {
  const [asking, setAsking] = useState<Decision | null>(null);
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');
  if (trade.role !== 'moderator') return null;
  const reason = reasons.find((r) => r.id === trade.dispute.reasonId)?.title ?? trade.dispute.reasonId;

  const decide = async (decision: Decision) => {
    setState('posting');
    setError('');
    const result =
      decision === 'reopen'
        ? await apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/reopen`)
        : await apiPost<TradeView>(`/rest/v1/moderation/trades/${trade.hash}/resolve`, { winner: decision });
    setAsking(null);
    if (result.ok && result.data) {
      setState('initial');
      onTrade(result.data);
      return;
    }
    setError(result.errors[0]?.message || t('trade.action.failed'));
    setState('error');
  };

  return (
    <section className="trade-moderation card" aria-label={t('trade.moderation.title')} data-moderator-panel>
      <h2 className="h4">{t('trade.moderation.title')}</h2>
      {trade.dispute.openedBy && (
        <dl className="trade-facts">
          <div>
            <dt>{t('trade.moderation.openedBy')}</dt>
            <dd dir="ltr">{trade.dispute.openedBy}</dd>
          </div>
          <div>
            <dt>{t('trade.moderation.reason')}</dt>
            <dd>{reason}</dd>
          </div>
        </dl>
      )}
      {trade.dispute.text && (
        <p className="trade-pre" dir="auto">
          {trade.dispute.text}
        </p>
      )}
      <div className="trade-buttons">
        {trade.actions.resolve && (
          <>
            <button
              type="button"
              className="btn btn-primary"
              data-action="resolve-buyer"
              onClick={() => setAsking('buyer')}
            >
              {t('trade.moderation.forBuyer', { username: trade.buyer.username })}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              data-action="resolve-seller"
              onClick={() => setAsking('seller')}
            >
              {t('trade.moderation.forSeller', { username: trade.seller.username })}
            </button>
          </>
        )}
        {trade.actions.reopen && (
          <button type="button" className="btn btn-secondary" data-action="reopen" onClick={() => setAsking('reopen')}>
            {t('trade.moderation.reopen')}
          </button>
        )}
      </div>
      {state === 'error' && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {asking && (
        <ConfirmDialog
          title={t(`trade.moderation.confirm.${asking}`)}
          confirmLabel={t('trade.moderation.decide')}
          cancelLabel={t('trade.action.back')}
          busy={state === 'posting'}
          onConfirm={() => void decide(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </section>
  );
}
