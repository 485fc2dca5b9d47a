import { useSettings } from './context.ts';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { DisableForm, PurposesForm } from './TwoFactorManage.tsx';
import { TwoFactorSetup } from './TwoFactorSetup.tsx';
import type { TwoFactorStatus } from './types.ts';
import { FormAlert, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { type TwoFactorState, useTwoFactor } from './use-two-factor.ts';

// Two-factor authentication (spec section 3 states: initial, verification, enabled, disabled).
// Turning it on or off ends the other sessions and renews this one (the cookies come back with
// the answer), so the device list is reloaded afterwards.

interface SectionProps {
  status: TwoFactorStatus;
  onStatus: (status: TwoFactorStatus) => void;
  onSessionRotated: () => void;
}

export function TwoFactorSection(props: SectionProps) {
  const { t } = useSettings();
  const state = useTwoFactor();
  const enabled = props.status.state === 'enabled';
  return (
    <SectionCard id="two-factor" title={t('settings.twoFactor.title')} lead={t('settings.twoFactor.lead')}>
      <div className="stack">
        <p className="state-line">
          <span className={`badge ${enabled ? 'badge-on' : 'badge-off'}`}>
            {enabled ? t('settings.on') : t('settings.off')}
          </span>
          <span>{enabled ? t('settings.twoFactor.stateOn') : t('settings.twoFactor.stateOff')}</span>
        </p>
        <TwoFactorBody {...props} state={state} />
      </div>
    </SectionCard>
  );
}

/** The step: recovery codes to keep, the setup, the enabled settings, or the start. */
function TwoFactorBody({ status, onStatus, onSessionRotated, state }: SectionProps & { state: TwoFactorState }) {
  const { t } = useSettings();
  const { setup, recoveryCodes } = state;
  if (recoveryCodes) {
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          state.setRecoveryCodes(undefined);
          state.setDone(t('settings.twoFactor.enabledNow'));
        }}
      />
    );
  }
  if (setup) {
    return (
      <TwoFactorSetup
        setup={setup}
        onCancel={() => state.setSetup(undefined)}
        onConfirmed={(next, codes) => {
          state.setSetup(undefined);
          state.setRecoveryCodes(codes);
          onStatus(next);
          onSessionRotated();
        }}
      />
    );
  }
  if (status.state === 'enabled') {
    return <EnabledTwoFactor status={status} onStatus={onStatus} onSessionRotated={onSessionRotated} state={state} />;
  }
  return <StartTwoFactor status={status} state={state} />;
}

function EnabledTwoFactor({ status, onStatus, onSessionRotated, state }: SectionProps & { state: TwoFactorState }) {
  const { t } = useSettings();
  return (
    <div className="stack">
      <StatusLine message={state.done} />
      <p className="muted">{t('settings.twoFactor.codesLeft', { count: status.recoveryCodesLeft })}</p>
      <PurposesForm status={status} onSaved={onStatus} />
      <hr className="divider" />
      <DisableForm
        onDisabled={(next) => {
          onStatus(next);
          onSessionRotated();
          state.setDone(t('settings.twoFactor.disabledNow'));
        }}
      />
    </div>
  );
}

function StartTwoFactor({ status, state }: { status: TwoFactorStatus; state: TwoFactorState }) {
  const { t } = useSettings();
  return (
    <div className="stack-sm">
      <FormAlert message={state.failure.summary} />
      <StatusLine message={state.done} />
      {status.state === 'verification' && <p className="muted">{t('settings.twoFactor.unfinished')}</p>}
      <div className="button-row">
        <SubmitButton type="button" busy={state.busy} onClick={state.start}>
          {status.state === 'verification' ? t('settings.twoFactor.restart') : t('settings.twoFactor.setUp')}
        </SubmitButton>
      </div>
    </div>
  );
}
