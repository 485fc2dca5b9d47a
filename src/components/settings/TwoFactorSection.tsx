import { type ReactNode, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { DisableForm, PurposesForm } from './TwoFactorManage.tsx';
import { type SetupSecret, TwoFactorSetup } from './TwoFactorSetup.tsx';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, SectionCard, StatusLine, SubmitButton } from './ui.tsx';

// Two-factor authentication (spec section 3 states: initial, verification, enabled, disabled).
// Turning it on or off ends the other sessions and renews this one (the cookies come back with
// the answer), so the device list is reloaded afterwards.

export function TwoFactorSection({
  status,
  onStatus,
  onSessionRotated,
}: {
  status: TwoFactorStatus;
  onStatus: (status: TwoFactorStatus) => void;
  onSessionRotated: () => void;
}) {
  const { t, locale, lang } = useSettings();
  const [setup, setSetup] = useState<SetupSecret>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const enabled = status.state === 'enabled';

  const start = async () => {
    setBusy(true);
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost<SetupSecret>(localized('/rest/v1/users/2fa/setup', locale));
    setBusy(false);
    if (result.ok && result.data) setSetup({ secret: result.data.secret, qrSvg: result.data.qrSvg });
    else setFailure(failureOf(result, [], { t, lang }));
  };

  let body: ReactNode;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(undefined);
          setDone(t('settings.twoFactor.enabledNow'));
        }}
      />
    );
  } else if (setup) {
    body = (
      <TwoFactorSetup
        setup={setup}
        onCancel={() => setSetup(undefined)}
        onConfirmed={(next, codes) => {
          setSetup(undefined);
          setRecoveryCodes(codes);
          onStatus(next);
          onSessionRotated();
        }}
      />
    );
  } else if (enabled) {
    body = (
      <div className="stack">
        <StatusLine message={done} />
        <p className="muted">{t('settings.twoFactor.codesLeft', { count: status.recoveryCodesLeft })}</p>
        <PurposesForm status={status} onSaved={onStatus} />
        <hr className="divider" />
        <DisableForm
          onDisabled={(next) => {
            onStatus(next);
            onSessionRotated();
            setDone(t('settings.twoFactor.disabledNow'));
          }}
        />
      </div>
    );
  } else {
    body = (
      <div className="stack-sm">
        <FormAlert message={failure.summary} />
        <StatusLine message={done} />
        {status.state === 'verification' && <p className="muted">{t('settings.twoFactor.unfinished')}</p>}
        <div className="button-row">
          <SubmitButton type="button" busy={busy} onClick={start}>
            {status.state === 'verification' ? t('settings.twoFactor.restart') : t('settings.twoFactor.setUp')}
          </SubmitButton>
        </div>
      </div>
    );
  }

  return (
    <SectionCard id="two-factor" title={t('settings.twoFactor.title')} lead={t('settings.twoFactor.lead')}>
      <div className="stack">
        <p className="state-line">
          <span className={`badge ${enabled ? 'badge-on' : 'badge-off'}`}>
            {enabled ? t('settings.on') : t('settings.off')}
          </span>
          <span>{enabled ? t('settings.twoFactor.stateOn') : t('settings.twoFactor.stateOff')}</span>
        </p>
        {body}
      </div>
    </SectionCard>
  );
}
