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

/**
 * Submit and cancel; `marker` sets the submit button's data-* attributes. A submit that may not
 * be used now stays focusable and says why: `aria-disabled`, looking disabled (wallet.css), with
 * the reason's element named by `reasonId`; the form's handler refuses it. `busy` (a request under
 * way) disables it outright, so a second click cannot land.
 */
export function ModalActions({
  label,
  disabled,
  busy = false,
  reasonId,
  cancelLabel,
  onCancel,
  marker,
}: {
  label: string;
  disabled: boolean;
  busy?: boolean;
  reasonId?: string | undefined;
  cancelLabel: string;
  onCancel(): void;
  marker?: Record<`data-${string}`, boolean>;
}) {
  return (
    <div className="wallet-modal-actions">
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy}
        aria-disabled={disabled || busy ? true : undefined}
        aria-describedby={disabled ? reasonId : undefined}
        {...marker}
      >
        {label}
      </button>
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
    </div>
  );
}
