import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { localized, type SettingsContextValue, useSettings } from './context.ts';
import { useSaveForm } from './use-save-form.ts';

// The password form's state (current, new, code, busy, failure, done) and its submit: missing
// fields are named here first, then the change is posted.

const FIELDS = ['currentPassword', 'newPassword', 'code'];

/** The messages of the fields left empty. */
function missingFields(
  { current, next, code, codeRequired }: { current: string; next: string; code: string; codeRequired: boolean },
  t: SettingsContextValue['t'],
): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!current) missing.currentPassword = t('settings.password.currentMissing');
  if (!next) missing.newPassword = t('settings.password.newMissing');
  if (codeRequired && !code.trim()) missing.code = t('settings.twoFactor.codeMissing');
  return missing;
}

export function usePasswordForm(codeRequired: boolean, onChanged: () => void) {
  const { t, locale } = useSettings();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [code, setCode] = useState('');
  const form = useSaveForm<{ changed: boolean }>(FIELDS);

  const submit = (event: SubmitEvent) =>
    form.save(
      event,
      missingFields({ current, next, code, codeRequired }, t),
      () =>
        apiPost<{ changed: boolean }>(localized('/rest/v1/users/change-password', locale), {
          currentPassword: current,
          newPassword: next,
          ...(code.trim() ? { code: code.trim() } : {}),
        }),
      (result) => {
        if (!result.ok) return undefined;
        setCurrent('');
        setNext('');
        setCode('');
        onChanged();
        return t('settings.password.saved');
      },
    );

  return {
    current,
    setCurrent,
    next,
    setNext,
    code,
    setCode,
    busy: form.busy,
    failure: form.failure,
    done: form.done,
    submit,
  };
}
