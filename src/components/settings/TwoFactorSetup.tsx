import { useEffect, useRef, useState } from 'react';
import { CodeInput, useCodeForm } from './code-form.tsx';
import { useSettings } from './context.ts';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, StatusLine, SubmitButton } from './ui.tsx';

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
  const { t } = useSettings();
  const { code, setCode, busy, failure, submit } = useCodeForm<TwoFactorStatus & { recoveryCodes: string[] }>({
    path: '/rest/v1/users/2fa/confirm',
    onAnswer: ({ recoveryCodes, ...status }) => onConfirmed(status, recoveryCodes),
  });
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

  return (
    <form className="form" onSubmit={submit} noValidate>
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
          <CodeInput
            id="settings-2fa-confirm-code"
            label={t('settings.twoFactor.step3')}
            hint={false}
            value={code}
            onChange={setCode}
            error={failure.fields.code}
          />
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
