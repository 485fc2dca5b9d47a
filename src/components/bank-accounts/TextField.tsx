import type { InputHTMLAttributes } from 'react';
import { Field, fieldAria } from '../form-field.tsx';
import type { AccountField, TextValue } from './account-values.ts';
import type { T } from './types.ts';
import type { AccountFormState } from './use-account-form.ts';

// One text field of the bank account form: its value, its API field's error (or a lookup's
// refusal) and an optional hint, tied together for screen readers by form-field.tsx.

export interface FormProps {
  t: T;
  id: string;
  form: AccountFormState;
}

/** A text input tied to its value, its API field's error and an optional hint. */
export function TextField({
  id,
  form,
  name,
  field,
  label,
  hint,
  error,
  ...input
}: Omit<FormProps, 't'> & {
  name: TextValue;
  field: AccountField;
  label: string;
  hint?: string;
  error?: string | undefined;
} & Pick<
    InputHTMLAttributes<HTMLInputElement>,
    'autoComplete' | 'inputMode' | 'maxLength' | 'required' | 'autoCapitalize' | 'dir'
  >) {
  const message = form.errors[field] ?? error;
  const inputId = `${id}-${name}`;
  return (
    <Field id={inputId} label={label} error={message} hint={hint}>
      <input
        {...fieldAria(inputId, message, hint !== undefined)}
        className="input"
        name={field}
        value={form.values[name]}
        onChange={(e) => form.setText(name, e.target.value)}
        spellCheck={false}
        {...input}
      />
    </Field>
  );
}
