import { createContext, type ReactNode, useContext } from 'react';
import type { MessageParams } from '../../lib/shared/i18n/interpolate.ts';
import { fieldId } from './form.ts';

// What every part of the editor shares: the translator and language, and the field frame that
// ties a control to its label, hint and error (aria-describedby, aria-invalid).

export interface EditorContextValue {
  t: (key: string, params?: MessageParams) => string;
  /** BCP 47 tag for Intl. */
  lang: string;
  /** Site locale, sent as `?locale=` so the API answers in it. */
  locale: string;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('An offer editor part is rendered outside <OfferEditor>.');
  return value;
}

/** `/location/search?q=x` → `/location/search?q=x&locale=de`. */
export function localized(path: string, locale: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`;
}

/** ARIA of the control for API field `field`: its id, invalid state and described-by list. */
export function controlAria(field: string, error: string | undefined, hint = false) {
  const id = fieldId(field);
  return {
    id,
    'data-field': field,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' '),
  } as const;
}

export function FieldError({ field, error }: { field: string; error: string | undefined }) {
  return (
    <p className="field-error" id={`${fieldId(field)}-error`}>
      {error}
    </p>
  );
}

export function Hint({ field, children }: { field: string; children: ReactNode }) {
  return (
    <p className="field-hint" id={`${fieldId(field)}-hint`}>
      {children}
    </p>
  );
}

/** A labelled control for one API field; the control itself comes as children. */
export function Field({
  field,
  label,
  hint,
  error,
  children,
  className,
}: {
  field: string;
  label: string;
  hint?: ReactNode;
  error: string | undefined;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={fieldId(field)}>{label}</label>
      {children}
      {hint !== undefined && <Hint field={field}>{hint}</Hint>}
      <FieldError field={field} error={error} />
    </div>
  );
}

/** One card of the form with a heading the section is named by. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card editor-section" aria-labelledby={`${id}-title`}>
      <h2 className="h3" id={`${id}-title`}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Two or more exclusive choices shown as segmented buttons (native radios underneath). */
export function Segmented<T extends string>({
  field,
  legend,
  value,
  options,
  onChange,
}: {
  field: string;
  legend: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="segmented-field">
      <legend className="field-label">{legend}</legend>
      <div className="segmented">
        {options.map((option, i) => (
          <label key={option.value} className="segment">
            <input
              type="radio"
              name={field}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              {...(i === 0 ? { id: fieldId(field) } : {})}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
