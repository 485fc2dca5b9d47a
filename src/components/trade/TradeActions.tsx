import { useId, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { formatCrypto, formatFiat } from '../../lib/shared/format.ts';
import type { TradeView } from './trade-logic.ts';
import { ConfirmDialog, type T } from './ui.tsx';

// The trade's buttons (spec section 4): mark paid and release (start, success, failed), cancel
// (loading, loaded, error), each behind a confirmation; release asks for the second-factor code
// when the seller turned it on. Mark paid and release replace the trade with the server's answer.

type Step = 'initial' | 'start' | 'success' | 'failed';
type CancelStep = 'initial' | 'loading' | 'loaded' | 'error';
type Asking = 'markPaid' | 'release' | 'cancel' | null;

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
  const [asking, setAsking] = useState<Asking>(null);
  const [paid, setPaid] = useState<Step>('initial');
  const [release, setRelease] = useState<Step>('initial');
  const [cancel, setCancel] = useState<CancelStep>('initial');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const { actions } = trade;
  // Nothing left to do here (the trade moved on): the status and the chat say what happened.
  if (!actions.markPaid && !actions.release && !actions.cancel && !error) return null;

  const markPaid = async () => {
    setPaid('start');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/paid`);
    setAsking(null);
    if (result.ok && result.data) {
      setPaid('success');
      onTrade(result.data);
    } else {
      setPaid('failed');
      setError(result.errors[0]?.message || t('trade.action.failed'));
    }
  };

  const doRelease = async () => {
    setRelease('start');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/release`, code ? { code } : {});
    if (result.ok && result.data) {
      setAsking(null);
      setRelease('success');
      onTrade(result.data);
      return;
    }
    setRelease('failed');
    // Spec section 8: a 400 shows the server's message (a wrong or missing code); anything else is generic.
    const message = result.status === 400 ? result.errors[0]?.message : undefined;
    setError(message || t('trade.release.failed'));
    if (result.status !== 400) setAsking(null);
  };

  const doCancel = async () => {
    setCancel('loading');
    setError('');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/cancel`);
    setAsking(null);
    if (result.ok && result.data) {
      setCancel('loaded');
      onTrade(result.data);
    } else {
      setCancel('error');
      setError(result.errors[0]?.message || t('trade.action.failed'));
    }
  };

  return (
    <section className="trade-actions card" aria-label={t('trade.actions.label')}>
      <div className="trade-buttons">
        {actions.markPaid && (
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
        {actions.release && (
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
        {actions.cancel && (
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
      {trade.role === 'buyer' && trade.status === 'active_funded' && !actions.markPaid && (
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

      {asking === 'markPaid' && (
        <ConfirmDialog
          title={t('trade.paid.confirmTitle')}
          confirmLabel={t('trade.paid.confirm')}
          cancelLabel={t('trade.action.back')}
          busy={paid === 'start'}
          onConfirm={() => void markPaid()}
          onCancel={() => setAsking(null)}
        >
          <p>
            {t('trade.paid.confirmText', {
              amount: formatFiat(trade.fiatAmount, trade.currency, lang, trade.fiatDecimals),
              username: trade.seller.username,
            })}
          </p>
        </ConfirmDialog>
      )}
      {asking === 'release' && (
        <ConfirmDialog
          title={t('trade.release.confirmTitle')}
          confirmLabel={t('trade.release.confirm')}
          cancelLabel={t('trade.action.back')}
          busy={release === 'start'}
          onConfirm={() => void doRelease()}
          onCancel={() => {
            setAsking(null);
            setRelease('initial');
            setError('');
          }}
        >
          <p>
            {t('trade.release.confirmText', {
              amount: formatCrypto(Number(trade.cryptoAmount), trade.cryptoCurrency, lang),
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
                value={code}
                onChange={(event) => setCode(event.target.value)}
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
      )}
      {asking === 'cancel' && (
        <ConfirmDialog
          title={t('trade.cancel.confirmTitle')}
          confirmLabel={t('trade.cancel.confirm')}
          cancelLabel={t('trade.action.back')}
          busy={cancel === 'loading'}
          danger
          onConfirm={() => void doCancel()}
          onCancel={() => setAsking(null)}
        >
          <p>
            {t(
              trade.role === 'buyer' && trade.status !== 'active_funded'
                ? 'trade.cancel.textPaid'
                : 'trade.cancel.text',
            )}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
