import { useId } from 'react';
import { TRADE_INSTRUCTIONS_MAX_LENGTH } from '../../lib/shared/offer-rules.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { usePaymentDetailsForm } from './use-payment-details-form.ts';

// The seller writes where the buyer pays, in the trade (decision 125): shown to the seller only,
// while the trade waits for payment (`actions.paymentDetails`). With no details yet the form is
// open; with some, one button opens it with them filled in.

export function PaymentDetailsForm({ trade, t, onTrade }: { trade: TradeView; t: T; onTrade(trade: TradeView): void }) {
  const id = useId();
  const form = usePaymentDetailsForm(trade, t, onTrade);
  const posting = form.state === 'posting';
  const status = (
    <p className="trade-details-saved" role="status" data-payment-details-saved={form.saved || undefined}>
      {form.saved ? t('trade.payment.form.saved') : ''}
    </p>
  );
  if (!form.open) {
    return (
      <div className="trade-details-form" data-payment-details-form="closed">
        <button type="button" className="btn btn-secondary" onClick={form.edit} data-edit-payment-details>
          {t('trade.payment.form.edit')}
        </button>
        {status}
      </div>
    );
  }
  return (
    <form className="trade-details-form" onSubmit={form.submit} data-payment-details-form="open">
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('trade.payment.form.label')}</label>
        <textarea
          id={`${id}-text`}
          className="input"
          dir="auto"
          rows={4}
          maxLength={TRADE_INSTRUCTIONS_MAX_LENGTH}
          aria-describedby={`${id}-hint`}
          value={form.draft}
          onChange={(event) => form.setDraft(event.target.value)}
        />
        <p id={`${id}-hint`} className="field-hint">
          {t('trade.payment.form.hint')}
        </p>
      </div>
      {form.state === 'error' && (
        <p className="field-error" role="alert">
          {form.error}
        </p>
      )}
      <div className="trade-buttons">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={posting}
          aria-busy={posting}
          data-save-payment-details
        >
          {t('trade.payment.form.save')}
        </button>
        {form.editing && (
          <button type="button" className="btn btn-secondary" onClick={form.close}>
            {t('trade.action.back')}
          </button>
        )}
      </div>
    </form>
  );
}
