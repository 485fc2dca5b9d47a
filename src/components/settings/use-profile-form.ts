import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { checkNotifyInterval, NOTIFY_INTERVAL_MAX_MINUTES } from '../../lib/shared/profile-rules.ts';
import { type Failure, failureOf, localized, noFailure, type SettingsContextValue, useSettings } from './context.ts';
import type { ProfileSettings } from './types.ts';

// The profile form's state (bio, interval, flags, busy, failure, done) and its submit: the
// interval is checked here first, then the whole form is posted to /rest/v1/users/settings.

export const FLAGS = [
  'soundNotifications',
  'notifySmsBitcoinsConfirmed',
  'notifySmsIncomingTrade',
  'emailSubscribed',
] as const;
export type Flag = (typeof FLAGS)[number];

const FIELDS = ['bio', 'notify_trade_messages_interval', ...FLAGS];

/** The interval's message when it is not a number of minutes within the maximum. */
function intervalProblem(minutes: string, t: SettingsContextValue['t']): string | undefined {
  const checked = checkNotifyInterval(minutes.trim());
  if (checked.ok) return undefined;
  return checked.key === 'notification_error'
    ? t('settings.profile.intervalMax', { max: NOTIFY_INTERVAL_MAX_MINUTES })
    : t('settings.profile.intervalDigits');
}

export function useProfileForm(initial: ProfileSettings) {
  const { t, locale, lang } = useSettings();
  const [bio, setBio] = useState(initial.bio);
  const [minutes, setMinutes] = useState(String(initial.notifyTradeMessagesInterval));
  const [flags, setFlags] = useState<Record<Flag, boolean>>(() => ({
    soundNotifications: initial.soundNotifications,
    notifySmsBitcoinsConfirmed: initial.notifySmsBitcoinsConfirmed,
    notifySmsIncomingTrade: initial.notifySmsIncomingTrade,
    emailSubscribed: initial.emailSubscribed,
  }));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setDone(undefined);
    const problem = intervalProblem(minutes, t);
    if (problem !== undefined) {
      setFailure({ summary: undefined, fields: { notify_trade_messages_interval: problem } });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost<ProfileSettings>(localized('/rest/v1/users/settings', locale), {
      bio,
      notify_trade_messages_interval: minutes.trim(),
      ...flags,
    });
    setBusy(false);
    if (result.ok && result.data) {
      setBio(result.data.bio);
      setMinutes(String(result.data.notifyTradeMessagesInterval));
      setDone(t('settings.profile.saved'));
    } else {
      setFailure(failureOf(result, FIELDS, { t, lang }));
    }
  };

  return { bio, setBio, minutes, setMinutes, flags, setFlags, busy, failure, done, submit };
}
