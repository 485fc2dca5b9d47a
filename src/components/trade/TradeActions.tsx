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
  const working = t('trade.action.working');
  return (
    <div className="trade-buttons">
      {allowed.markPaid && (
        <ActionButton
          className="btn btn-primary btn-lg"
          action="mark-paid"
          onClick={() => setAsking('markPaid')}
          busy={paid === 'start'}
          label={t('trade.paid.button')}
          working={working}
        />
      )}
      {allowed.release && (
        <ActionButton
          // Before the buyer says they paid, releasing is rarely right: it does not lead the page.
          className={trade.status === 'active_funded' ? 'btn btn-secondary' : 'btn btn-primary btn-lg'}
          action="release"
          onClick={() => setAsking('release')}
          busy={release === 'start'}
          label={t('trade.release.button', { crypto: trade.cryptoCurrency })}
          working={working}
        />
      )}
      {allowed.cancel && (
        <ActionButton
          className="btn btn-secondary"
          action="cancel"
          onClick={() => setAsking('cancel')}
          busy={cancel === 'loading'}
          label={t('trade.cancel.button')}
          working={working}
        />
      )}
    </div>
  );
}

/** One action's button: disabled and saying so while its request runs. */
function ActionButton(props: {
  className: string;
  action: string;
  onClick(): void;
  busy: boolean;
  label: string;
  working: string;
}) {
  return (
    <button
      type="button"
      className={props.className}
      data-action={props.action}
      onClick={props.onClick}
      disabled={props.busy}
    >
      {props.busy ? props.working : props.label}
    </button>
  );
}

/** What an action did, once it succeeded. */
function Success({ text }: { text: string }) {
  return (
    <p className="alert alert-success" role="status">
      {text}
    </p>
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
      {paid === 'success' && <Success text={t('trade.paid.success')} />}
      {release === 'success' && <Success text={t('trade.release.success')} />}
      {cancel === 'loaded' && <Success text={t('trade.cancel.success')} />}
      {error && asking === null && (
        <p className="alert alert-error" role="alert" data-action-error>
          {error}
        </p>
      )}
    </>
  );
}
