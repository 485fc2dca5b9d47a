import { type ReactNode, useId } from 'react';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';

// Building blocks of the wallet island: a modal on <dialog>, a form field with its error, and
// prices as people read them (amounts: formatCryptoAmount of src/lib/shared/format-crypto.ts).

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
