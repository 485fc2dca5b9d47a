import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import {
  BIO_MAX_LENGTH,
  BIO_MAX_LINES,
  bioLength,
  bioLineCount,
  checkNotifyInterval,
  NOTIFY_INTERVAL_MAX_MINUTES,
  normalizeBio,
} from '../../lib/shared/profile-rules.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import type { ProfileSettings } from './types.ts';
import { Field, FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';

// Bio, the trade-message notification interval and the notification flags: one form, posted
// whole to /rest/v1/users/settings. The bio's limits count live; contact details are the
// server's call (its rules are long), shown on the field like its other answers.

const FLAGS = [
  'soundNotifications',
  'notifySmsBitcoinsConfirmed',
  'notifySmsIncomingTrade',
  'emailSubscribed',
] as const;
type Flag = (typeof FLAGS)[number];

const FIELDS = ['bio', 'notify_trade_messages_interval', ...FLAGS];

export function ProfileForm({ initial }: { initial: ProfileSettings }) {
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

  const normalized = normalizeBio(bio);
  const length = bioLength(normalized);
  const lines = bioLineCount(normalized);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setDone(undefined);
    const checked = checkNotifyInterval(minutes.trim());
    if (!checked.ok) {
      const message =
        checked.key === 'notification_error'
          ? t('settings.profile.intervalMax', { max: NOTIFY_INTERVAL_MAX_MINUTES })
          : t('settings.profile.intervalDigits');
      setFailure({ summary: undefined, fields: { notify_trade_messages_interval: message } });
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

  const bioError = failure.fields.bio;
  const intervalError = failure.fields.notify_trade_messages_interval;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <FormAlert message={failure.summary} />
      <Field
        id="settings-bio"
        label={t('settings.profile.bio')}
        error={bioError}
        hint={
          <>
            {t('settings.profile.bioHint')}{' '}
            <span className={`counter${length > BIO_MAX_LENGTH || lines > BIO_MAX_LINES ? ' over' : ''}`}>
              {t('settings.profile.bioCount', {
                count: length,
                max: BIO_MAX_LENGTH,
                lines,
                maxLines: BIO_MAX_LINES,
              })}
            </span>
          </>
        }
      >
        <textarea
          {...fieldAria('settings-bio', bioError, true)}
          className="input"
          value={bio}
          onChange={(e) => setBio(e.target.value)}
          rows={5}
        />
      </Field>
      <fieldset className="fieldset">
        <legend className="subhead">{t('settings.profile.notifications')}</legend>
        <Field
          id="settings-interval"
          label={t('settings.profile.interval')}
          error={intervalError}
          hint={t('settings.profile.intervalHint', { max: NOTIFY_INTERVAL_MAX_MINUTES })}
        >
          <input
            {...fieldAria('settings-interval', intervalError, true)}
            className="input input-short"
            inputMode="numeric"
            pattern="[0-9]*"
            value={minutes}
            onChange={(e) => setMinutes(e.target.value)}
            maxLength={4}
          />
        </Field>
        <div className="checkbox-list">
          {FLAGS.map((flag) => (
            <label className="checkbox" key={flag}>
              <input
                type="checkbox"
                name={flag}
                checked={flags[flag]}
                onChange={(e) => setFlags({ ...flags, [flag]: e.target.checked })}
              />
              <span>{t(`settings.profile.flag.${flag}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="button-row">
        <SubmitButton busy={busy}>{t('settings.profile.save')}</SubmitButton>
      </div>
      <StatusLine message={done} />
    </form>
  );
}
