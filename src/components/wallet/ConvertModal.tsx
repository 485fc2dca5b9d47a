import { useStore } from '@nanostores/react';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../lib/shared/money.ts';
import { $now } from '../../stores/clock.ts';
import { type ConversionState, DIRECTIONS, disabledReason, KNOWN_ERROR_CODES, previewAmount } from './conversion.ts';
import type { ConversionDirection, HedgingSettings, Quote } from './types.ts';
import { Field, fieldAria, formatAmount, formatPrice, Modal } from './ui.tsx';

// The conversion modal of one direction (spec sections 4 and 5): the quote with its countdown,
// the amount with "max" and a live preview of what it gives, the reason conversion is disabled,
// and the states posting, pending (retry with the same order) and error (clear).

type T = (key: string, params?: Record<string, string | number>) => string;

export function ConvertModal({
  t,
  lang,
  direction,
  state,
  balance,
  amount,
  onAmount,
  quote,
  obsolete,
  subscribeError,
  settings,
  isIdVerified,
  onConvert,
  onClearError,
  onClose,
}: {
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
  onConvert(): void;
  onClearError(): void;
  onClose(): void;
}) {
  // The store ticks every second while the modal is open; the render reads the time itself.
  const now = Math.max(useStore($now), Date.now());
  const { from, to } = DIRECTIONS[direction];
  const reason = disabledReason({
    from,
    balance,
    isIdVerified,
    available: settings.available,
    subscribeError,
    quote,
    obsolete,
  });
  const limits = settings.limits[from];
  const preview = quote && !obsolete ? previewAmount(from, amount, quote) : undefined;
  const minor = toMinorUnits(amount, CRYPTO_DECIMALS[from]);
  const amountError =
    amount.trim() !== '' && (minor === undefined || minor <= 0)
      ? t('wallet.convert.amountInvalid', { decimals: CRYPTO_DECIMALS[from] })
      : undefined;
  const secondsLeft = quote ? Math.max(0, quote.expiredTimestamp - Math.floor(now / 1000)) : 0;
  const posting = state.conversionStatus === 'posting';
  const pending = state.conversionStatus === 'pending';
  const canSubmit = reason === undefined && preview !== undefined && !posting;
  const errorText =
    state.errorMessageKey &&
    (KNOWN_ERROR_CODES.some((code) => state.errorMessageKey === `wallet.convert.error.${code}`) || !state.errorMessage
      ? t(state.errorMessageKey)
      : state.errorMessage);
  const id = `convert-${direction}`;

  return (
    <Modal
      title={t(direction === 'toUsdt' ? 'wallet.convert.titleToTether' : 'wallet.convert.titleToBitcoin')}
      closeLabel={t('wallet.close')}
      onClose={onClose}
      className="wallet-convert"
    >
      <div className="wallet-rate" data-rate data-obsolete={obsolete || !quote ? '' : undefined}>
        {quote && !obsolete ? (
          <>
            <span>
              {t('wallet.convert.rate', {
                price: formatPrice(direction === 'toUsdt' ? quote.bid : quote.ask, lang),
              })}
            </span>
            <span className="wallet-countdown muted" data-countdown>
              {t('wallet.convert.validFor', { seconds: secondsLeft })}
            </span>
          </>
        ) : (
          <span>{t(quote ? 'wallet.convert.rateObsolete' : 'wallet.convert.rateMissing')}</span>
        )}
      </div>

      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canSubmit) onConvert();
        }}
      >
        <p className="muted">
          {t('wallet.convert.available', { amount: formatAmount(balance, from, lang) })}
          {' · '}
          {t('wallet.convert.limits', {
            min: formatAmount(limits.min, from, lang),
            max: formatAmount(limits.max, from, lang),
          })}
        </p>
        <Field id={`${id}-amount`} label={t('wallet.convert.amount', { currency: from })} error={amountError}>
          <div className="wallet-amount-row">
            <input
              {...fieldAria(`${id}-amount`, amountError)}
              className="input"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              disabled={pending || posting}
              onChange={(event) => onAmount(event.target.value.replace(',', '.'))}
            />
            <button
              type="button"
              className="btn btn-secondary"
              disabled={pending || posting}
              onClick={() => {
                // The balance, within the upper limit.
                const max = Number(limits.max) < Number(balance) ? limits.max : balance;
                onAmount(max.replace(/\.?0+$/, ''));
              }}
            >
              {t('wallet.max')}
            </button>
          </div>
        </Field>
        <p className="wallet-preview" data-preview aria-live="polite">
          {preview
            ? t('wallet.convert.youReceive', { amount: formatAmount(preview, to, lang) })
            : t('wallet.convert.youReceiveNothing')}
        </p>

        {reason && (
          <p className="alert alert-info" data-disabled-reason={reason}>
            {t(`wallet.convert.disabled.${reason}`)}
          </p>
        )}

        {pending && (
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

        <div className="wallet-modal-actions">
          <button type="submit" className="btn btn-primary" disabled={!canSubmit} data-convert>
            {posting ? t('wallet.convert.posting') : pending ? t('wallet.convert.retry') : t('wallet.convert.submit')}
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('wallet.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
