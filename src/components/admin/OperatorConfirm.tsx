import { type FormEvent, type JSX, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import '../../styles/forms.css';
import '../../styles/dialog.css';
import './admin-money.css';

// The second step of every operator change (docs/decisions/151-operator-second-factor.md): a modal
// <dialog> that asks why (kept in the audit log, 1-500 characters, counted as typed) and a current
// code of the authenticator app or a recovery code. The caller's onConfirm sends both; an error it
// returns is shown in place, the reason kept, the code cleared (a code is spent once) and focused.
// On success the dialog closes through onClose. Labels come as props: the moderators' screens pass
// translated ones, the administrators' screens English (decision 167).

export type OperatorConfirmLabels = { reason: string; code: string; confirm: string; cancel: string; codeHint: string };

export interface OperatorConfirmProps {
  open: boolean;
  title: string;
  labels: OperatorConfirmLabels;
  /** Shown above the fields: what the change does, a warning. */
  extra?: ReactNode;
  onConfirm: (input: { reason: string; code: string }) => Promise<{ error?: string }>;
  onClose: () => void;
}

/** The server's limit (server/services/operators/second-factor.ts REASON_MAX_LENGTH). */
export const OPERATOR_REASON_MAX = 500;
/** The API takes at most 64 characters of code; a recovery code is far shorter. */
const CODE_MAX = 64;

export function OperatorConfirm(props: OperatorConfirmProps): JSX.Element {
  // Mounted only while open: each opening starts empty and the <dialog> opens as a modal. The
  // empty fragment keeps the JSX.Element return type that the callers code against.
  // biome-ignore lint/complexity/noUselessFragments: an element, not null, when closed
  return props.open ? <ConfirmDialog {...props} /> : <></>;
}

/** The form's state: the reason and code as typed, the error the last try returned, busy while sending. */
function useConfirmForm(onConfirm: OperatorConfirmProps['onConfirm'], onClose: () => void) {
  const codeInput = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // Counts the refused tries: the effect below focuses the cleared code field after each one.
  const [refusals, setRefusals] = useState(0);
  const length = reason.trim().length;
  const ready = length > 0 && length <= OPERATOR_REASON_MAX && code.trim() !== '' && !busy;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(undefined);
    const answer = await onConfirm({ reason: reason.trim(), code: code.replace(/\s+/g, '') }).catch(
      (failure: unknown) => ({ error: failure instanceof Error ? failure.message : String(failure) }),
    );
    setBusy(false);
    if (answer.error === undefined) {
      onClose();
      return;
    }
    setError(answer.error);
    setCode('');
    setRefusals((count) => count + 1);
  }
  // After the commit that re-enabled the field (a disabled input cannot take the focus). A frame
  // callback raced that commit, and a page in the background gets no frames at all.
  useEffect(() => {
    if (refusals > 0) codeInput.current?.focus();
  }, [refusals]);
  return { codeInput, reason, setReason, code, setCode, error, busy, length, ready, submit };
}

function ConfirmDialog({ title, labels, extra, onConfirm, onClose }: OperatorConfirmProps) {
  const dialog = useModalDialog();
  const id = useId();
  const { codeInput, reason, setReason, code, setCode, error, busy, length, ready, submit } = useConfirmForm(
    onConfirm,
    onClose,
  );

  return (
    <dialog
      ref={dialog}
      className="dialog operator-confirm"
      aria-labelledby={`${id}-title`}
      data-operator-confirm
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form className="form" onSubmit={submit} noValidate>
        <h2 id={`${id}-title`} className="h3">
          {title}
        </h2>
        {extra !== undefined && <div className="operator-confirm-extra">{extra}</div>}
        <div className="field">
          <label htmlFor={`${id}-reason`}>{labels.reason}</label>
          <textarea
            id={`${id}-reason`}
            className="input operator-confirm-reason"
            aria-describedby={`${id}-count`}
            value={reason}
            maxLength={OPERATOR_REASON_MAX}
            required
            disabled={busy}
            onChange={(event) => setReason(event.target.value)}
          />
          <p className="field-hint operator-confirm-count" id={`${id}-count`} data-reason-count>
            {length} / {OPERATOR_REASON_MAX}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-code`}>{labels.code}</label>
          <input
            ref={codeInput}
            id={`${id}-code`}
            className="input operator-confirm-code"
            type="text"
            autoComplete="one-time-code"
            spellCheck={false}
            aria-describedby={`${id}-hint ${id}-error`}
            aria-invalid={error ? true : undefined}
            value={code}
            maxLength={CODE_MAX}
            required
            disabled={busy}
            onChange={(event) => setCode(event.target.value)}
          />
          <p className="field-hint" id={`${id}-hint`}>
            {labels.codeHint}
          </p>
          <p className="field-error" id={`${id}-error`} role="alert" data-confirm-error>
            {error}
          </p>
        </div>
        <div className="operator-confirm-actions">
          <button type="submit" className="btn btn-primary" disabled={!ready} aria-busy={busy || undefined}>
            {labels.confirm}
          </button>
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={onClose}>
            {labels.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
