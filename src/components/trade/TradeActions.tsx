import { useId } from 'react';
import { CancelDialog, MarkPaidDialog, ReleaseDialog } from './TradeActionDialogs.tsx';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { type TradeActionsState, useTradeActions } from './use-trade-actions.ts';

// The trade's buttons (spec section 4): mark paid and release (start, success, failed), cancel
// (loading, loaded, error), each behind a confirmation; release asks for the second-factor code
// when the seller turned it on. Mark paid and release replace the trade with the server's answer.

interface PartProps {
  trade: TradeView;
  t: T;
  actions: TradeActionsState;
}

export function TradeActions({
  trade,
  t,
  lang,
  onTrade,
}: {
  trade: TradeView;
  t: T;
  lang: string;
  onTrade(trade: TradeView): void;
}) {
  const id = useId();
  const actions = useTradeActions(trade, t, onTrade);
  const allowed = trade.actions;
  // Nothing left to do here (the trade moved on): the status and the chat say what happened.
  if (!allowed.markPaid && !allowed.release && !allowed.cancel && !actions.error) return null;

  return (
    <section className="trade-actions card" aria-label={t('trade.actions.label')}>
      <ActionButtons trade={trade} t={t} actions={actions} />
      <ActionNotices trade={trade} t={t} actions={actions} />
      {actions.asking === 'markPaid' && <MarkPaidDialog trade={trade} t={t} lang={lang} actions={actions} />}
      {actions.asking === 'release' && <ReleaseDialog trade={trade} t={t} lang={lang} id={id} actions={actions} />}
      {actions.asking === 'cancel' && <CancelDialog trade={trade} t={t} actions={actions} />}
    </section>
  );
}

function ActionButtons({ trade, t, actions }: PartProps) {
  const allowed = trade.actions;
  const { paid, release, cancel, setAsking } = actions;
  return (
    <div className="trade-buttons">
      {allowed.markPaid && (
        <button
          type="button"
          className="btn btn-primary btn-lg"
          data-action="mark-paid"
          onClick={() => setAsking('markPaid')}
          disabled={paid === 'start'}
        >
          {paid === 'start' ? t('trade.action.working') : t('trade.paid.button')}
        </button>
      )}
      {allowed.release && (
        <button
          type="button"
          className="btn btn-primary btn-lg"
          data-action="release"
          onClick={() => setAsking('release')}
          disabled={release === 'start'}
        >
          {release === 'start'
            ? t('trade.action.working')
            : t('trade.release.button', { crypto: trade.cryptoCurrency })}
        </button>
      )}
      {allowed.cancel && (
        <button
          type="button"
          className="btn btn-secondary"
          data-action="cancel"
          onClick={() => setAsking('cancel')}
          disabled={cancel === 'loading'}
        >
          {cancel === 'loading' ? t('trade.action.working') : t('trade.cancel.button')}
        </button>
      )}
    </div>
  );
}

/** Why marking paid is blocked, what succeeded, and the last error once no confirmation is open. */
function ActionNotices({ trade, t, actions }: PartProps) {
  const { paid, release, cancel, error, asking } = actions;
  return (
    <>
      {trade.role === 'buyer' && trade.status === 'active_funded' && !trade.actions.markPaid && (
        <p className="muted" data-blocked-by="requirements">
          {t('trade.paid.blocked')}
        </p>
      )}
      {paid === 'success' && (
        <p className="alert alert-success" role="status">
          {t('trade.paid.success')}
        </p>
      )}
      {release === 'success' && (
        <p className="alert alert-success" role="status">
          {t('trade.release.success')}
        </p>
      )}
      {cancel === 'loaded' && (
        <p className="alert alert-success" role="status">
          {t('trade.cancel.success')}
        </p>
      )}
      {error && asking === null && (
        <p className="alert alert-error" role="alert" data-action-error>
          {error}
        </p>
      )}
    </>
  );
}
