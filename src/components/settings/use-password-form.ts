import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, type SettingsContextValue, useSettings } from './context.ts';

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
  const { t, locale, lang } = useSettings();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setDone(undefined);
    const missing = missingFields({ current, next, code, codeRequired }, t);
    if (Object.keys(missing).length > 0) {
      setFailure({ summary: undefined, fields: missing });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<{ changed: boolean }>(localized('/rest/v1/users/change-password', locale), {
      currentPassword: current,
      newPassword: next,
      ...(code.trim() ? { code: code.trim() } : {}),
    });
    setBusy(false);
    if (result.ok) {
      setCurrent('');
      setNext('');
      setCode('');
      setDone(t('settings.password.saved'));
      onChanged();
    } else {
      setFailure(failureOf(result, FIELDS, { t, lang }));
    }
  };

  return { current, setCurrent, next, setNext, code, setCode, busy, failure, done, submit };
}
