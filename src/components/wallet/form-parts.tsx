import type { ReactNode } from 'react';
import { fieldAria } from './ui.tsx';

// What the send and conversion modals share: the form that only submits through its handler,
// the amount input with its "max" button, and the submit and cancel buttons at the bottom.

/** A form that never navigates: submitting hands over to `onSubmit`. */
export function ModalForm({ onSubmit, children }: { onSubmit(): void; children: ReactNode }) {
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** The amount (a comma typed as the decimal point) and the button that fills in the most. */
export function AmountInput({
  id,
  error,
  hint,
  value,
  disabled,
  maxLabel,
  onChange,
  onMax,
}: {
  id: string;
  error: string | undefined;
  hint?: boolean;
  value: string;
  disabled?: boolean;
  maxLabel: string;
  onChange(value: string): void;
  onMax(): void;
}) {
  return (
    <div className="wallet-amount-row">
      <input
        {...fieldAria(id, error, hint)}
        className="input"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value.replace(',', '.'))}
      />
      <button type="button" className="btn btn-secondary" disabled={disabled} onClick={onMax}>
        {maxLabel}
      </button>
    </div>
  );
}

/** Submit and cancel; `marker` sets the submit button's data-* attributes. */
export function ModalActions({
  label,
  disabled,
  cancelLabel,
  onCancel,
  marker,
}: {
  label: string;
  disabled: boolean;
  cancelLabel: string;
  onCancel(): void;
  marker?: Record<`data-${string}`, boolean>;
}) {
  return (
    <div className="wallet-modal-actions">
      <button type="submit" className="btn btn-primary" disabled={disabled} {...marker}>
        {label}
      </button>
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
    </div>
  );
}
