import { checkPassword, PASSWORD_MIN_LENGTH, passwordChecks } from '../../lib/shared/password-policy.ts';
import { CodeInput } from './code-form.tsx';
import { useSettings } from './context.ts';
import { FormAlert, PasswordField, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { usePasswordForm } from './use-password-form.ts';

// Password change (POST /rest/v1/users/change-password). The server ends every session and
// answers new cookies for this browser, so the page simply stays signed in. The live helper is
// the registration page's (src/lib/shared/password-policy.ts, the same five checks the server makes).

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
  const { t } = useSettings();
  const { current, setCurrent, next, setNext, code, setCode, busy, failure, done, submit } = usePasswordForm(
    codeRequired,
    onChanged,
  );

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
          <PasswordChecks password={next} />
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

/** The five checks of the new password, each marked once met. */
function PasswordChecks({ password }: { password: string }) {
  const { t } = useSettings();
  const met = checkPassword(password);
  return (
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
  );
}
