import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { checkPassword, PASSWORD_MIN_LENGTH, passwordChecks } from '../../lib/shared/password-policy.ts';
import { CodeInput } from './code-form.tsx';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { FormAlert, PasswordField, SectionCard, StatusLine, SubmitButton } from './ui.tsx';

// Password change (POST /rest/v1/users/change-password). The server ends every session and
// answers new cookies for this browser, so the page simply stays signed in. The live helper is
// the registration page's (src/lib/shared/password-policy.ts, the same five checks the server makes).

const FIELDS = ['currentPassword', 'newPassword', 'code'];

export function PasswordSection({
  accountName,
  codeRequired,
  onChanged,
}: {
  /** The sign-in e-mail, for password managers. */
  accountName: string;
  codeRequired: boolean;
  onChanged: () => void;
}) {
  const { t, locale, lang } = useSettings();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const met = checkPassword(next);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setDone(undefined);
    const missing: Record<string, string> = {};
    if (!current) missing.currentPassword = t('settings.password.currentMissing');
    if (!next) missing.newPassword = t('settings.password.newMissing');
    if (codeRequired && !code.trim()) missing.code = t('settings.twoFactor.codeMissing');
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

  return (
    <SectionCard id="password" title={t('settings.password.title')} lead={t('settings.password.lead')}>
      <form className="form" onSubmit={submit} noValidate>
        <FormAlert message={failure.summary} />
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" hidden readOnly value={accountName} />
        <PasswordField
          id="settings-current-password"
          label={t('settings.password.current')}
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          error={failure.fields.currentPassword}
        />
        <PasswordField
          id="settings-new-password"
          label={t('settings.password.new')}
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          error={failure.fields.newPassword}
          describedBy="settings-password-checks"
        >
          <div className="checks-box" id="settings-password-checks">
            <p className="field-hint">{t('auth.password.needs')}</p>
            <ul className="checks">
              {passwordChecks.map((check) => (
                <li key={check} className={met[check] ? 'met' : undefined}>
                  {t(`auth.password.check.${check}`, { min: PASSWORD_MIN_LENGTH })}
                </li>
              ))}
            </ul>
          </div>
        </PasswordField>
        {codeRequired && (
          <CodeInput id="settings-password-code" value={code} onChange={setCode} error={failure.fields.code} />
        )}
        <div className="button-row">
          <SubmitButton busy={busy}>{t('settings.password.save')}</SubmitButton>
        </div>
        <StatusLine message={done} />
      </form>
    </SectionCard>
  );
}
