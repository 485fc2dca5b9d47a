import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useSettings } from './context.ts';

// Small building blocks the sections share. Classes come from src/styles/forms.css and
// global.css; layout of the page from ./settings.css.

export function SectionCard({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  children: ReactNode;
}) {
  return (
    <section className="card settings-card" id={id} aria-labelledby={`${id}-title`}>
      <header className="settings-card-head">
        <h2 className="h3" id={`${id}-title`}>
          {title}
        </h2>
        {lead && <p className="muted settings-lead">{lead}</p>}
      </header>
      {children}
    </section>
  );
}

/** The form's top message; always present so assistive technology hears it when it changes. */
export function FormAlert({ message }: { message: string | undefined }) {
  return (
    <p className="alert alert-error" role="alert">
      {message}
    </p>
  );
}

/** An inline success confirmation. */
export function StatusLine({ message }: { message: string | undefined }) {
  return (
    <p className="alert alert-success" role="status">
      {message}
    </p>
  );
}

/** A password input with a show/hide button, like the sign-in page's. */
export function PasswordField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  error,
  describedBy,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  error: string | undefined;
  describedBy?: string;
  children?: ReactNode;
}) {
  const { t } = useSettings();
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-wrap">
        <input
          id={id}
          className="input"
          type={shown ? 'text' : 'password'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete={autoComplete}
          maxLength={1024}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={[describedBy, `${id}-error`].filter(Boolean).join(' ')}
        />
        <button
          type="button"
          className="reveal"
          aria-pressed={shown}
          aria-label={shown ? t('auth.field.hidePassword') : t('auth.field.showPassword')}
          onClick={() => setShown(!shown)}
        >
          <EyeIcon crossed={shown} />
        </button>
      </div>
      {children}
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  );
}

/** A button that says it is working; `busy` also disables it against double submits. */
export function SubmitButton({
  busy,
  children,
  variant = 'primary',
  type = 'submit',
  onClick,
  disabled,
}: {
  busy: boolean;
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  type?: 'submit' | 'button';
  onClick?: () => void;
  disabled?: boolean;
}) {
  const { t } = useSettings();
  return (
    <button
      type={type}
      className={`btn btn-${variant}`}
      aria-busy={busy || undefined}
      disabled={busy || disabled}
      onClick={onClick}
    >
      {busy ? t('settings.working') : children}
    </button>
  );
}

/**
 * A modal dialog on the native <dialog>: focus moves in and back, Escape closes it, the page
 * behind is inert. `open` drives it; closing in any way calls `onClose`.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="settings-modal card" aria-labelledby={titleId} onClose={onClose}>
      <h2 className="h3" id={titleId}>
        {title}
      </h2>
      {children}
    </dialog>
  );
}

/** True once the island runs in the browser: server and first client render must agree. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * A date as the reader's clock shows it. The server knows no time zone, so the server render and
 * the hydration render both use UTC; the reader's zone follows right after.
 */
export function DateTime({ iso }: { iso: string }) {
  const { lang } = useSettings();
  const hydrated = useHydrated();
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(hydrated ? {} : { timeZone: 'UTC' }),
  }).format(new Date(iso));
  return <time dateTime={iso}>{text}</time>;
}

export { Field, fieldAria } from '../form-field.tsx';
