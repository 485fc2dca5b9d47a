import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';

// Turning two-factor on: a new secret (QR code and the key for typing in), then the app's first
// code. The answer carries the recovery codes, once.

export interface SetupSecret {
  secret: string;
  qrSvg: string;
}

/** The key in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export function TwoFactorSetup({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: SetupSecret;
  onConfirmed: (status: TwoFactorStatus, recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const { t, locale, lang } = useSettings();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [note, setNote] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(setup.secret);
      setNote(t('settings.twoFactor.keyCopied'));
    } catch {
      setNote(t('settings.copyFailed'));
    }
  };

  const confirm = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setFailure({ summary: undefined, fields: { code: t('settings.twoFactor.codeMissing') } });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<TwoFactorStatus & { recoveryCodes: string[] }>(
      localized('/rest/v1/users/2fa/confirm', locale),
      { code: code.trim() },
    );
    setBusy(false);
    if (result.ok && result.data) {
      const { recoveryCodes, ...status } = result.data;
      onConfirmed(status, recoveryCodes);
    } else setFailure(failureOf(result, ['code'], { t, lang }));
  };

  const error = failure.fields.code;
  return (
    <form className="form" onSubmit={confirm} noValidate>
      <h3 className="h3" ref={heading} tabIndex={-1}>
        {t('settings.twoFactor.setupTitle')}
      </h3>
      <FormAlert message={failure.summary} />
      <ol className="setup-steps">
        <li>
          <p>{t('settings.twoFactor.step1')}</p>
          <img
            className="qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt={t('settings.twoFactor.qrAlt')}
            width={200}
            height={200}
          />
        </li>
        <li>
          <p>{t('settings.twoFactor.step2')}</p>
          <div className="inline-row">
            <code className="secret" id="two-factor-secret">
              {grouped(setup.secret)}
            </code>
            <button type="button" className="btn btn-secondary" onClick={copy}>
              {t('settings.copy')}
            </button>
          </div>
          <StatusLine message={note} />
        </li>
        <li>
          <div className="field">
            <label htmlFor="settings-2fa-confirm-code">{t('settings.twoFactor.step3')}</label>
            <input
              {...fieldAria('settings-2fa-confirm-code', error)}
              className="input input-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <p className="field-error" id="settings-2fa-confirm-code-error">
              {error}
            </p>
          </div>
        </li>
      </ol>
      <div className="button-row">
        <SubmitButton busy={busy}>{t('settings.twoFactor.turnOn')}</SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
          {t('settings.cancel')}
        </button>
      </div>
    </form>
  );
}
