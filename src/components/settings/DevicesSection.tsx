import { useEffect, useRef, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import type { SessionDevice } from './types.ts';
import { DateTime, FormAlert, SectionCard, StatusLine, SubmitButton } from './ui.tsx';

// The account's signed-in browsers (GET /rest/v1/users/sessions), with sign-out per device and
// for all but this one. `version` changes when another section ended sessions (password, 2FA):
// the list is loaded again.

export function DevicesSection({ initial, version }: { initial: SessionDevice[]; version: number }) {
  const { t, locale, lang } = useSettings();
  const [devices, setDevices] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const firstVersion = useRef(version);

  const reload = async () => {
    const result = await apiGet<SessionDevice[]>(localized('/rest/v1/users/sessions', locale));
    if (result.ok && result.data) setDevices(result.data);
    else setFailure(failureOf(result, [], { t, lang }));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: reload on a new version only.
  useEffect(() => {
    if (version !== firstVersion.current) void reload();
  }, [version]);

  const signOut = async (device: SessionDevice) => {
    setBusy(device.id);
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost(localized('/rest/v1/users/sessions/revoke', locale), { id: device.id });
    setBusy(null);
    if (result.ok || result.status === 404) {
      // 404: it had ended already. Either way it is gone from the list.
      setDevices(devices.filter((d) => d.id !== device.id));
      setDone(t('settings.devices.signedOut', { device: describe(device) }));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  const signOutOthers = async () => {
    setBusy('others');
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost<{ revoked: number }>(localized('/rest/v1/users/sessions/revoke-others', locale));
    setBusy(null);
    if (result.ok && result.data) {
      setDevices(devices.filter((d) => d.current));
      setDone(t('settings.devices.othersSignedOut', { count: result.data.revoked }));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  const describe = (device: SessionDevice) => {
    const browser = device.browser
      ? `${device.browser}${device.version ? ` ${device.version.split('.')[0]}` : ''}`
      : t('settings.devices.unknownBrowser');
    return device.os ? t('settings.devices.browserOn', { browser, os: device.os }) : browser;
  };

  const others = devices.filter((d) => !d.current);
  return (
    <SectionCard id="devices" title={t('settings.devices.title')} lead={t('settings.devices.lead')}>
      <div className="stack-sm">
        <FormAlert message={failure.summary} />
        <StatusLine message={done} />
        <ul className="device-list" aria-label={t('settings.devices.listLabel')}>
          {devices.map((device) => (
            <li key={device.id} className="device" data-current={device.current || undefined}>
              <div className="device-main">
                <p className="device-name">
                  <strong>{describe(device)}</strong>
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
                  onClick={() => void signOut(device)}
                >
                  <span>
                    {t('settings.devices.signOut')}
                    <span className="visually-hidden">: {describe(device)}</span>
                  </span>
                </SubmitButton>
              )}
            </li>
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
