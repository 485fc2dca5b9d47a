import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { fieldAria } from './ui.tsx';

// The second factor's code as the settings forms ask for it: the field, and the submit of a form
// whose one required entry is that code (turning two-factor on, its purposes, turning it off).

/** A code from the authenticator app (or a recovery code); `label` for a step's own wording. */
export function CodeInput({
  id,
  value,
  onChange,
  error,
  label,
  hint = true,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  label?: string;
  hint?: boolean;
}) {
  const { t } = useSettings();
  return (
    <div className="field">
      <label htmlFor={id}>{label ?? t('settings.twoFactor.code')}</label>
      <input
        {...fieldAria(id, error, hint)}
        className="input input-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={64}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {t('settings.twoFactor.codeHint')}
        </p>
      )}
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}

/**
 * A form that posts `{ ...body(), code }` to `path` once a code is typed: the code's state, the
 * busy flag and the failure (mapped onto `fields`), and its submit handler.
 */
export function useCodeForm<T>({
  path,
  fields = ['code'],
  body,
  onAnswer,
}: {
  path: string;
  fields?: readonly string[];
  body?: () => Record<string, unknown>;
  onAnswer: (data: T) => void;
}) {
  const { t, locale, lang } = useSettings();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setFailure({ summary: undefined, fields: { code: t('settings.twoFactor.codeMissing') } });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<T>(localized(path, locale), { ...body?.(), code: code.trim() });
    setBusy(false);
    if (result.ok && result.data) onAnswer(result.data);
    else setFailure(failureOf(result, fields, { t, lang }));
  };

  return { code, setCode, busy, failure, submit };
}
