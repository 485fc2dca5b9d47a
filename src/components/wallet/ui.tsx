import { type ReactNode, useId } from 'react';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import type { CryptoCode } from './types.ts';

// Building blocks of the wallet island: a modal on <dialog>, a form field with its error, and
// amounts as people read them.

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Decimal text (`0.00150000`, `-12.500000`) in the reader's format, exactly (Intl reads decimal
 * strings without a float in between): bitcoin with 8 decimals, tether with 2 to 6.
 */
export function formatAmount(text: string, code: CryptoCode, lang: string, { sign = false } = {}): string {
  const key = `${lang}|${code}|${sign}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, {
      minimumFractionDigits: code === 'BTC' ? CRYPTO_DECIMALS.BTC : 2,
      maximumFractionDigits: CRYPTO_DECIMALS[code],
      ...(sign ? { signDisplay: 'exceptZero' as const } : {}),
    });
    formatters.set(key, format);
  }
  const number = format.format(text as unknown as number);
  return `${number} ${code}`;
}

/** A price in USDT per BTC with 2 decimals. */
export function formatPrice(price: number, lang: string): string {
  return `${new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(price)} USDT`;
}

export function Modal({
  title,
  closeLabel,
  onClose,
  className,
  children,
}: {
  title: string;
  closeLabel: string;
  onClose(): void;
  className?: string;
  children: ReactNode;
}) {
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className={`wallet-modal${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="wallet-modal-head">
        <h2 id={titleId} className="h3">
          {title}
        </h2>
        <button type="button" className="wallet-modal-close" aria-label={closeLabel} onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}

export { Field, fieldAria } from '../form-field.tsx';
