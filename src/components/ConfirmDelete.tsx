import { useEffect, useRef } from 'react';

// Delete with a second step: the button becomes a question with "yes" and "no", the "yes" taking
// the focus so a keyboard user confirms or tabs on. Saved bank accounts and gift cards use it.

export interface ConfirmDeleteProps {
  /** The thing's id: names the question for the confirm button's description. */
  id: string;
  asking: boolean;
  busy: boolean;
  words: { action: string; actionLabel?: string; confirm: string; yes: string; no: string };
  /** Classes of the first button and of the question's box. */
  classes: { button?: string; box: string };
  onAsk(): void;
  onCancel(): void;
  onConfirm(): void;
}

export function ConfirmDelete({ id, asking, busy, words, classes, onAsk, onCancel, onConfirm }: ConfirmDeleteProps) {
  const question = `${classes.box}-question-${id}`;
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className={`btn btn-secondary ${classes.button ?? ''}`.trim()}
        aria-label={words.actionLabel}
        onClick={onAsk}
      >
        {words.action}
      </button>
    );
  }
  return (
    <div className={classes.box}>
      <span id={question}>{words.confirm}</span>
      <button
        ref={confirm}
        type="button"
        className="btn btn-danger"
        aria-describedby={question}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={onConfirm}
      >
        {words.yes}
      </button>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={onCancel}>
        {words.no}
      </button>
    </div>
  );
}
