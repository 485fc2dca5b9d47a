import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';

// Two-factor while it is on: which actions ask for a code (login, sendout, release; at least
// one), and turning it off. Both take a current code or a recovery code.

const PURPOSES = ['login', 'sendout', 'release'] as const;
type Purpose = (typeof PURPOSES)[number];

function CodeInput({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useSettings();
  return (
    <div className="field">
      <label htmlFor={id}>{t('settings.twoFactor.code')}</label>
      <input
        {...fieldAria(id, error, true)}
        className="input input-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={64}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {t('settings.twoFactor.codeHint')}
      </p>
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    </div>
  );
}

export function PurposesForm({
  status,
  onSaved,
}: {
  status: TwoFactorStatus;
  onSaved: (status: TwoFactorStatus) => void;
}) {
  const { t, locale, lang } = useSettings();
  const [chosen, setChosen] = useState<Record<Purpose, boolean>>({
    login: status.login,
    sendout: status.sendout,
    release: status.release,
  });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setDone(undefined);
    if (!code.trim()) {
      setFailure({ summary: undefined, fields: { code: t('settings.twoFactor.codeMissing') } });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<TwoFactorStatus>(localized('/rest/v1/users/2fa/purposes', locale), {
      ...chosen,
      code: code.trim(),
    });
    setBusy(false);
    if (result.ok && result.data) {
      setCode('');
      setDone(t('settings.twoFactor.purposesSaved'));
      onSaved(result.data);
    } else setFailure(failureOf(result, ['code', ...PURPOSES], { t, lang }));
  };

  const purposeError = failure.fields.login ?? failure.fields.sendout ?? failure.fields.release;
  return (
    <form className="form" onSubmit={submit} noValidate>
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
    const result = await apiPost<TwoFactorStatus>(localized('/rest/v1/users/2fa/disable', locale), {
      code: code.trim(),
    });
    setBusy(false);
    if (result.ok && result.data) onDisabled(result.data);
    else setFailure(failureOf(result, ['code'], { t, lang }));
  };

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
