import { useEffect, useRef, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, type SettingsContextValue, useSettings } from './context.ts';
import type { SessionDevice } from './types.ts';

// The device list's state: the devices, which sign-out is on its way, the failure and the done
// message; reloaded when `version` changes, with sign-out of one device or all others.

/** "Firefox 128 on Linux": the browser's major version, the system when known. */
export function describeDevice(device: SessionDevice, t: SettingsContextValue['t']): string {
  const browser = device.browser
    ? `${device.browser}${device.version ? ` ${device.version.split('.')[0]}` : ''}`
    : t('settings.devices.unknownBrowser');
  return device.os ? t('settings.devices.browserOn', { browser, os: device.os }) : browser;
}

export function useDevices(initial: SessionDevice[], version: number) {
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

  const starting = (id: string) => {
    setBusy(id);
    setFailure(noFailure);
    setDone(undefined);
  };

  const signOut = async (device: SessionDevice) => {
    starting(device.id);
    const result = await apiPost(localized('/rest/v1/users/sessions/revoke', locale), { id: device.id });
    setBusy(null);
    if (result.ok || result.status === 404) {
      // 404: it had ended already. Either way it is gone from the list.
      setDevices(devices.filter((d) => d.id !== device.id));
      setDone(t('settings.devices.signedOut', { device: describeDevice(device, t) }));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  const signOutOthers = async () => {
    starting('others');
    const result = await apiPost<{ revoked: number }>(localized('/rest/v1/users/sessions/revoke-others', locale));
    setBusy(null);
    if (result.ok && result.data) {
      setDevices(devices.filter((d) => d.current));
      setDone(t('settings.devices.othersSignedOut', { count: result.data.revoked }));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  return { devices, busy, failure, done, signOut, signOutOthers };
}
