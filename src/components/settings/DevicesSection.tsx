import { useSettings } from './context.ts';
import type { SessionDevice } from './types.ts';
import { DateTime, FormAlert, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { describeDevice, useDevices } from './use-devices.ts';

// The account's signed-in browsers (GET /rest/v1/users/sessions), with sign-out per device and
// for all but this one. `version` changes when another section ended sessions (password, 2FA):
// the list is loaded again.

export function DevicesSection({ initial, version }: { initial: SessionDevice[]; version: number }) {
  const { t } = useSettings();
  const { devices, busy, failure, done, signOut, signOutOthers } = useDevices(initial, version);
  const others = devices.filter((d) => !d.current);
  return (
    <SectionCard id="devices" title={t('settings.devices.title')} lead={t('settings.devices.lead')}>
      <div className="stack-sm">
        <FormAlert message={failure.summary} />
        <StatusLine message={done} />
        <ul className="device-list" aria-label={t('settings.devices.listLabel')}>
          {devices.map((device) => (
            <DeviceItem key={device.id} device={device} busy={busy} onSignOut={() => void signOut(device)} />
          ))}
        </ul>
        {others.length > 0 ? (
          <div className="button-row">
            <SubmitButton type="button" variant="danger" busy={busy === 'others'} onClick={signOutOthers}>
              {t('settings.devices.signOutOthers')}
            </SubmitButton>
          </div>
        ) : (
          <p className="muted">{t('settings.devices.onlyThis')}</p>
        )}
      </div>
    </SectionCard>
  );
}

function DeviceItem({ device, busy, onSignOut }: { device: SessionDevice; busy: string | null; onSignOut(): void }) {
  const { t } = useSettings();
  const name = describeDevice(device, t);
  return (
    <li className="device" data-current={device.current || undefined}>
      <div className="device-main">
        <p className="device-name">
          <strong>{name}</strong>
          {device.current && <span className="badge badge-on">{t('settings.devices.thisDevice')}</span>}
        </p>
        <p className="device-meta muted">
          <span>{t('settings.devices.ip', { ip: device.ip })}</span>
          <span>
            {t('settings.devices.lastUsed')} <DateTime iso={device.lastUsedAt} />
          </span>
          <span>
            {t('settings.devices.signedIn')} <DateTime iso={device.createdAt} />
          </span>
        </p>
      </div>
      {!device.current && (
        <SubmitButton
          type="button"
          variant="secondary"
          busy={busy === device.id}
          disabled={busy !== null}
          onClick={onSignOut}
        >
          <span>
            {t('settings.devices.signOut')}
            <span className="visually-hidden">: {name}</span>
          </span>
        </SubmitButton>
      )}
    </li>
  );
}
