import { tIsolated } from '../../lib/isolated.tsx';
import { formatFiat } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { TradeView } from './trade-logic.ts';
import { ConfirmDialog, type T } from './ui.tsx';
import type { TradeActionsState } from './use-trade-actions.ts';

// The confirmations behind the trade's buttons (spec section 4): mark paid, release (with the
// second-factor code when the seller turned it on) and cancel.

interface DialogProps {
  trade: TradeView;
  t: T;
  actions: TradeActionsState;
}

export function MarkPaidDialog({ trade, t, lang, actions }: DialogProps & { lang: string }) {
  return (
    <ConfirmDialog
      title={t('trade.paid.confirmTitle')}
      confirmLabel={t('trade.paid.confirm')}
      cancelLabel={t('trade.action.back')}
      busy={actions.paid === 'start'}
      onConfirm={() => void actions.markPaid()}
      onCancel={() => actions.setAsking(null)}
    >
      <p>
        {tIsolated(t, 'trade.paid.confirmText', {
          amount: formatFiat(trade.fiatAmount, trade.currency, lang, trade.fiatDecimals),
          username: trade.seller.username,
        })}
      </p>
    </ConfirmDialog>
  );
}

export function ReleaseDialog({ trade, t, lang, id, actions }: DialogProps & { lang: string; id: string }) {
  const { release, error } = actions;
  return (
    <ConfirmDialog
      title={t('trade.release.confirmTitle')}
      confirmLabel={t('trade.release.confirm')}
      cancelLabel={t('trade.action.back')}
      busy={release === 'start'}
      onConfirm={() => void actions.doRelease()}
      onCancel={actions.backFromRelease}
    >
      <p>
        {tIsolated(t, 'trade.release.confirmText', {
          amount: formatCryptoAmount(trade.cryptoAmount, trade.cryptoCurrency, lang),
          username: trade.buyer.username,
        })}
      </p>
      {trade.releaseNeedsCode && (
        <div className="field">
          <label htmlFor={`${id}-code`}>{t('trade.release.code')}</label>
          <input
            id={`${id}-code`}
            className="input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={64}
            value={actions.code}
            onChange={(event) => actions.setCode(event.target.value)}
            aria-invalid={release === 'failed'}
            aria-describedby={`${id}-code-error`}
            data-release-code
          />
        </div>
      )}
      {release === 'failed' && (
        <p id={`${id}-code-error`} className="field-error" role="alert" data-release-error>
          {error}
        </p>
      )}
    </ConfirmDialog>
  );
}

export function CancelDialog({ trade, t, actions }: DialogProps) {
  return (
    <ConfirmDialog
      title={t('trade.cancel.confirmTitle')}
      confirmLabel={t('trade.cancel.confirm')}
      cancelLabel={t('trade.action.back')}
      busy={actions.cancel === 'loading'}
      danger
      onConfirm={() => void actions.doCancel()}
      onCancel={() => actions.setAsking(null)}
    >
      <p>
        {t(trade.role === 'buyer' && trade.status !== 'active_funded' ? 'trade.cancel.textPaid' : 'trade.cancel.text')}
      </p>
    </ConfirmDialog>
  );
}
