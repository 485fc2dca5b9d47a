import { type ReactNode, useId } from 'react';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';

// Small pieces the trade page's parts share.

export type T = ReturnType<typeof islandTranslator>;

/** A modal question with a confirm and a cancel button (native <dialog>: focus trap, Escape). */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy = false,
  danger = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className="trade-modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form
        className="trade-modal-body"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) onConfirm();
        }}
      >
        <h2 id={titleId} className="h3">
          {title}
        </h2>
        {children}
        <div className="trade-modal-actions">
          <button
            type="submit"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            aria-busy={busy}
            disabled={busy}
          >
            {confirmLabel}
          </button>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A status in words with its colour (spec section 3 statuses). */
export function StatusBadge({ status, t }: { status: string; t: T }) {
  return (
    <span className={`trade-status trade-status-${status}`} data-status={status}>
      {t(`trade.status.${status}`)}
    </span>
  );
}
