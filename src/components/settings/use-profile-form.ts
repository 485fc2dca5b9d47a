import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { forgetLocalCurrency } from '../../lib/local-currency.ts';
import { checkNotifyInterval, NOTIFY_INTERVAL_MAX_MINUTES } from '../../lib/shared/profile-rules.ts';
import { localized, type SettingsContextValue, useSettings } from './context.ts';
import type { ProfileSettings } from './types.ts';
import { useSaveForm } from './use-save-form.ts';

// The profile form's state (bio, interval, flags, busy, failure, done) and its submit: the
// interval is checked here first, then the whole form is posted to /rest/v1/users/settings.

export const FLAGS = [
  'soundNotifications',
  'notifySmsBitcoinsConfirmed',
  'notifySmsIncomingTrade',
  'emailSubscribed',
] as const;
export type Flag = (typeof FLAGS)[number];

const FIELDS = ['country_id', 'bio', 'notify_trade_messages_interval', ...FLAGS];

/** The interval's message when it is not a number of minutes within the maximum. */
function intervalProblem(minutes: string, t: SettingsContextValue['t']): string | undefined {
  const checked = checkNotifyInterval(minutes.trim());
  if (checked.ok) return undefined;
  return checked.key === 'notification_error'
    ? t('settings.profile.intervalMax', { max: NOTIFY_INTERVAL_MAX_MINUTES })
    : t('settings.profile.intervalDigits');
}

export function useProfileForm(initial: ProfileSettings) {
  const { t, locale } = useSettings();
  const [bio, setBio] = useState(initial.bio);
  const [minutes, setMinutes] = useState(String(initial.notifyTradeMessagesInterval));
  const [countryId, setCountryId] = useState<number | null>(initial.countryId);
  const [flags, setFlags] = useState<Record<Flag, boolean>>(() => ({
    soundNotifications: initial.soundNotifications,
    notifySmsBitcoinsConfirmed: initial.notifySmsBitcoinsConfirmed,
    notifySmsIncomingTrade: initial.notifySmsIncomingTrade,
    emailSubscribed: initial.emailSubscribed,
  }));
  const form = useSaveForm<ProfileSettings>(FIELDS);

  const submit = (event: SubmitEvent) => {
    const problem = intervalProblem(minutes, t);
    return form.save(
      event,
      problem === undefined ? {} : { notify_trade_messages_interval: problem },
      () =>
        apiPost<ProfileSettings>(localized('/rest/v1/users/settings', locale), {
          bio,
          notify_trade_messages_interval: minutes.trim(),
          ...flags,
          ...(countryId === null ? {} : { country_id: countryId }),
        }),
      (result) => {
        if (!(result.ok && result.data)) return undefined;
        setBio(result.data.bio);
        setMinutes(String(result.data.notifyTradeMessagesInterval));
        // Pages built ahead of time asked for the old country's currency: ask again.
        if (result.data.countryId !== initial.countryId) forgetLocalCurrency();
        return t('settings.profile.saved');
      },
    );
  };

  return {
    countryId,
    setCountryId,
    bio,
    setBio,
    minutes,
    setMinutes,
    flags,
    setFlags,
    busy: form.busy,
    failure: form.failure,
    done: form.done,
    submit,
  };
}
