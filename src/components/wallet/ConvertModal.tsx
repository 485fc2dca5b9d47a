import { useId } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { ConversionState } from './conversion.ts';
import { AmountInput, ModalActions, ModalForm } from './form-parts.tsx';
import type { ConversionDirection, HedgingSettings, Quote } from './types.ts';
import { Field, formatPrice, Modal } from './ui.tsx';
import { type ConvertView, useConvertView } from './use-convert-view.ts';

// The conversion modal of one direction (spec sections 4 and 5): the quote with its countdown,
// the amount with "max" and a live preview of what it gives, the reason conversion is disabled,
// and the states posting, pending (retry with the same order) and error (clear).

type T = (key: string, params?: Record<string, string | number>) => string;

export interface ConvertModalProps {
  t: T;
  lang: string;
  direction: ConversionDirection;
  state: ConversionState;
  balance: string;
  amount: string;
  onAmount(value: string): void;
  quote: Quote | undefined;
  obsolete: boolean;
  subscribeError: boolean;
  settings: HedgingSettings;
  isIdVerified: boolean;
  /** The verification page in the reader's language: where the missing-identity reason leads. */
  verificationHref: string;
  onConvert(): void;
  onClearError(): void;
  onClose(): void;
}

interface Part {
  t: T;
  lang: string;
  view: ConvertView;
}

export function ConvertModal(props: ConvertModalProps) {
  const { t, lang, direction, state, onClose } = props;
  const view = useConvertView(props);
  const { posting, pending } = view;
  const reasonId = useId();
  return (
    <Modal
      title={t(direction === 'toUsdt' ? 'wallet.convert.titleToTether' : 'wallet.convert.titleToBitcoin')}
      closeLabel={t('wallet.close')}
      onClose={onClose}
      className="wallet-convert"
    >
      <ConvertRate t={t} lang={lang} view={view} direction={direction} quote={props.quote} obsolete={props.obsolete} />
      <ModalForm
        onSubmit={() => {
          if (view.canSubmit) props.onConvert();
        }}
      >
        <ConvertAmount {...props} view={view} />
        <ConvertNotes
          t={t}
          lang={lang}
          view={view}
          state={state}
          reasonId={reasonId}
          verificationHref={props.verificationHref}
          onClearError={props.onClearError}
        />
        <ModalActions
          label={
            posting ? t('wallet.convert.posting') : pending ? t('wallet.convert.retry') : t('wallet.convert.submit')
          }
          disabled={!view.canSubmit}
          busy={posting}
          reasonId={view.reason ? reasonId : undefined}
          cancelLabel={t('wallet.cancel')}
          onCancel={onClose}
          marker={{ 'data-convert': true }}
        />
      </ModalForm>
    </Modal>
  );
}

function ConvertRate({
  t,
  lang,
  view,
  direction,
  quote,
  obsolete,
}: Part & { direction: ConversionDirection; quote: Quote | undefined; obsolete: boolean }) {
  return (
    <div className="wallet-rate" data-rate data-obsolete={obsolete || !quote ? '' : undefined}>
      {quote && !obsolete ? (
        <>
          <span>
            {t('wallet.convert.rate', {
              price: formatPrice(direction === 'toUsdt' ? quote.bid : quote.ask, lang),
            })}
          </span>
          <span className="wallet-countdown muted" data-countdown>
            {t('wallet.convert.validFor', { seconds: view.secondsLeft })}
          </span>
        </>
      ) : (
        <span>{t(quote ? 'wallet.convert.rateObsolete' : 'wallet.convert.rateMissing')}</span>
      )}
    </div>
  );
}

/** The balance and limits, the amount with "max" (the balance within the upper limit), the preview. */
function ConvertAmount({
  t,
  lang,
  view,
  direction,
  balance,
  amount,
  onAmount,
}: ConvertModalProps & { view: ConvertView }) {
  const { from, to, limits, preview, amountError } = view;
  const id = `convert-${direction}`;
  return (
    <>
      <p className="muted">
        {t('wallet.convert.available', { amount: formatCryptoAmount(balance, from, lang) })}
        {' · '}
        {t('wallet.convert.limits', {
          min: formatCryptoAmount(limits.min, from, lang),
          max: formatCryptoAmount(limits.max, from, lang),
        })}
      </p>
      <Field id={`${id}-amount`} label={t('wallet.convert.amount', { currency: from })} error={amountError}>
        <AmountInput
          id={`${id}-amount`}
          error={amountError}
          value={amount}
          disabled={view.pending || view.posting}
          maxLabel={t('wallet.max')}
          onChange={onAmount}
          onMax={() => {
            const max = Number(limits.max) < Number(balance) ? limits.max : balance;
            onAmount(max.replace(/\.?0+$/, ''));
          }}
        />
      </Field>
      <p className="wallet-preview" data-preview aria-live="polite">
        {preview
          ? t('wallet.convert.youReceive', { amount: formatCryptoAmount(preview, to, lang) })
          : t('wallet.convert.youReceiveNothing')}
      </p>
    </>
  );
}

/**
 * Why conversion is disabled (the Convert button names this line as its description; a missing
 * identity links to the verification page), and the pending and error states.
 */
function ConvertNotes({
  t,
  view,
  state,
  reasonId,
  verificationHref,
  onClearError,
}: Part & { state: ConversionState; reasonId: string; verificationHref: string; onClearError(): void }) {
  const { reason, errorText } = view;
  const reasonText = reason && t(`wallet.convert.disabled.${reason}`);
  return (
    <>
      {reason && (
        <p className="alert alert-info" id={reasonId} data-disabled-reason={reason}>
          {reason === 'idRequired' ? <a href={verificationHref}>{reasonText}</a> : reasonText}
        </p>
      )}

      {view.pending && (
        <div className="alert alert-info wallet-pending" role="alert" data-state="pending">
          <p>{errorText}</p>
          <p>{t('wallet.convert.pendingHint')}</p>
        </div>
      )}
      {state.conversionStatus === 'error' && (
        <div className="alert alert-error wallet-error" role="alert" data-state="error">
          <p>{errorText}</p>
          <button type="button" className="btn btn-secondary" onClick={onClearError}>
            {t('wallet.convert.clearError')}
          </button>
        </div>
      )}
    </>
  );
}
