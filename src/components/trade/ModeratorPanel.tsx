import { tIsolated } from '../../lib/isolated.tsx';
import type { DisputeReasonOption, TradeView } from './trade-logic.ts';
import { ConfirmDialog, type T } from './ui.tsx';
import { type Decision, useModeratorDecision } from './use-moderator-decision.ts';

// The moderator's view of a dispute (spec section 2): who opened it, why, and the decisions —
// the coins to the buyer or back to the seller — or reopening a finished trade as a dispute.

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
  const { asking, setAsking, state, error, decide, take } = useModeratorDecision(trade, t, onTrade);
  if (trade.role !== 'moderator') return null;

  return (
    <section className="trade-moderation card" aria-label={t('trade.moderation.title')} data-moderator-panel>
      <h2 className="h4">{t('trade.moderation.title')}</h2>
      <DisputeSummary trade={trade} reasons={reasons} t={t} />
      <DecisionButtons trade={trade} t={t} onAsk={setAsking} onTake={() => void take()} busy={state === 'posting'} />
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

/** Who opened the dispute, for which reason, and what they wrote. */
function DisputeSummary({ trade, reasons, t }: { trade: TradeView; reasons: DisputeReasonOption[]; t: T }) {
  const reason = reasons.find((r) => r.id === trade.dispute.reasonId)?.title ?? trade.dispute.reasonId;
  return (
    <>
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
    </>
  );
}

function DecisionButtons({
  trade,
  t,
  onAsk,
  onTake,
  busy,
}: {
  trade: TradeView;
  t: T;
  onAsk(decision: Decision): void;
  onTake(): void;
  busy: boolean;
}) {
  return (
    <div className="trade-buttons">
      {trade.actions.take && (
        <button type="button" className="btn btn-primary" data-action="take" onClick={onTake} disabled={busy}>
          {busy ? t('trade.action.working') : t('trade.moderation.take')}
        </button>
      )}
      {trade.actions.resolve && (
        <>
          <button type="button" className="btn btn-primary" data-action="resolve-buyer" onClick={() => onAsk('buyer')}>
            {tIsolated(t, 'trade.moderation.forBuyer', { username: trade.buyer.username })}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-action="resolve-seller"
            onClick={() => onAsk('seller')}
          >
            {tIsolated(t, 'trade.moderation.forSeller', { username: trade.seller.username })}
          </button>
        </>
      )}
      {trade.actions.reopen && (
        <button type="button" className="btn btn-secondary" data-action="reopen" onClick={() => onAsk('reopen')}>
          {t('trade.moderation.reopen')}
        </button>
      )}
    </div>
  );
}
