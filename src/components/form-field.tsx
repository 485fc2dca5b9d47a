import type { ReactNode } from 'react';

// One labelled form field of the islands (settings, wallet): the label, the control, an optional
// hint and the error line a screen reader hears through aria-describedby.

/** The ids and ARIA attributes that tie an input to its hint and error. */
export function fieldAria(id: string, error: string | undefined, hint?: boolean) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' '),
  } as const;
}

export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint !== undefined && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}
