import { useStore } from '@nanostores/react';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../lib/shared/money.ts';
import { $now } from '../../stores/clock.ts';
import { type ConversionState, DIRECTIONS, disabledReason, KNOWN_ERROR_CODES, previewAmount } from './conversion.ts';
import type { ConversionDirection, HedgingSettings, Quote } from './types.ts';

// What the conversion modal shows, worked out from its props and the clock: the reason it is
// disabled, the preview, the amount's error, the seconds the quote has left, the state's flags
// and the error text.

type T = (key: string, params?: Record<string, string | number>) => string;

export interface ConvertViewInput {
  t: T;
  direction: ConversionDirection;
  state: ConversionState;
  balance: string;
  amount: string;
  quote: Quote | undefined;
  obsolete: boolean;
  subscribeError: boolean;
  settings: HedgingSettings;
  isIdVerified: boolean;
}

/** The amount's error: text that is not a positive amount in the currency's decimals. */
function amountErrorOf(t: T, amount: string, decimals: number): string | undefined {
  const minor = toMinorUnits(amount, decimals);
  return amount.trim() !== '' && (minor === undefined || minor <= 0)
    ? t('wallet.convert.amountInvalid', { decimals })
    : undefined;
}

/** A known error code's message in the reader's language, else the server's message. */
function errorTextOf(t: T, state: ConversionState): string | undefined {
  return (
    state.errorMessageKey &&
    (KNOWN_ERROR_CODES.some((code) => state.errorMessageKey === `wallet.convert.error.${code}`) || !state.errorMessage
      ? t(state.errorMessageKey)
      : state.errorMessage)
  );
}

export function useConvertView(input: ConvertViewInput) {
  const { t, direction, state, balance, amount, quote, obsolete, subscribeError, settings, isIdVerified } = input;
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
  const preview = quote && !obsolete ? previewAmount(from, amount, quote) : undefined;
  const posting = state.conversionStatus === 'posting';
  return {
    from,
    to,
    reason,
    preview,
    limits: settings.limits[from],
    amountError: amountErrorOf(t, amount, CRYPTO_DECIMALS[from]),
    secondsLeft: quote ? Math.max(0, quote.expiredTimestamp - Math.floor(now / 1000)) : 0,
    posting,
    pending: state.conversionStatus === 'pending',
    canSubmit: reason === undefined && preview !== undefined && !posting,
    errorText: errorTextOf(t, state),
  };
}

export type ConvertView = ReturnType<typeof useConvertView>;
