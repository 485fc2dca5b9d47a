import { useState } from 'react';
import { CodeInput, useCodeForm } from './code-form.tsx';
import { useSettings } from './context.ts';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, StatusLine, SubmitButton } from './ui.tsx';

// Two-factor while it is on: which actions ask for a code (login, sendout, release; at least
// one), and turning it off. Both take a current code or a recovery code.

const PURPOSES = ['login', 'sendout', 'release'] as const;
type Purpose = (typeof PURPOSES)[number];

export function PurposesForm({
  status,
  onSaved,
}: {
  status: TwoFactorStatus;
  onSaved: (status: TwoFactorStatus) => void;
}) {
  const { t } = useSettings();
  const [chosen, setChosen] = useState<Record<Purpose, boolean>>({
    login: status.login,
    sendout: status.sendout,
    release: status.release,
  });
  const [done, setDone] = useState<string>();
  const { code, setCode, busy, failure, submit } = useCodeForm<TwoFactorStatus>({
    path: '/rest/v1/users/2fa/purposes',
    fields: ['code', ...PURPOSES],
    body: () => chosen,
    onAnswer: (saved) => {
      setCode('');
      setDone(t('settings.twoFactor.purposesSaved'));
      onSaved(saved);
    },
  });

  const purposeError = failure.fields.login ?? failure.fields.sendout ?? failure.fields.release;
  return (
    <form
      className="form"
      onSubmit={(event) => {
        setDone(undefined);
        return submit(event);
      }}
      noValidate
    >
      <FormAlert message={failure.summary} />
      <fieldset className="fieldset" aria-describedby="two-factor-purposes-error">
        <legend className="field-label">{t('settings.twoFactor.purposes')}</legend>
        <div className="checkbox-list">
          {PURPOSES.map((purpose) => (
            <label className="checkbox" key={purpose}>
              <input
                type="checkbox"
                checked={chosen[purpose]}
                onChange={(e) => setChosen({ ...chosen, [purpose]: e.target.checked })}
              />
              <span>{t(`settings.twoFactor.purpose.${purpose}`)}</span>
            </label>
          ))}
        </div>
        <p className="field-error" id="two-factor-purposes-error">
          {purposeError}
        </p>
      </fieldset>
      <CodeInput id="settings-2fa-purposes-code" value={code} onChange={setCode} error={failure.fields.code} />
      <div className="button-row">
        <SubmitButton busy={busy} variant="secondary">
          {t('settings.twoFactor.savePurposes')}
        </SubmitButton>
      </div>
      <StatusLine message={done} />
    </form>
  );
}

export function DisableForm({ onDisabled }: { onDisabled: (status: TwoFactorStatus) => void }) {
  const { t } = useSettings();
  const { code, setCode, busy, failure, submit } = useCodeForm<TwoFactorStatus>({
    path: '/rest/v1/users/2fa/disable',
    onAnswer: onDisabled,
  });

  return (
    <form className="form" onSubmit={submit} noValidate>
      <h3 className="h3">{t('settings.twoFactor.disableTitle')}</h3>
      <p className="muted">{t('settings.twoFactor.disableText')}</p>
      <FormAlert message={failure.summary} />
      <CodeInput id="settings-2fa-disable-code" value={code} onChange={setCode} error={failure.fields.code} />
      <div className="button-row">
        <SubmitButton busy={busy} variant="danger">
          {t('settings.twoFactor.turnOff')}
        </SubmitButton>
      </div>
    </form>
  );
}
