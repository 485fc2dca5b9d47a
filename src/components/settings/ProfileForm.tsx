import {
  BIO_MAX_LENGTH,
  BIO_MAX_LINES,
  bioLength,
  bioLineCount,
  NOTIFY_INTERVAL_MAX_MINUTES,
  normalizeBio,
} from '../../lib/shared/profile-rules.ts';
import { useSettings } from './context.ts';
import type { ProfileSettings, SettingsCountry } from './types.ts';
import { Field, FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';
import { FLAGS, type Flag, useProfileForm } from './use-profile-form.ts';

// Bio, the trade-message notification interval and the notification flags: one form, posted
// whole to /rest/v1/users/settings. The bio's limits count live; contact details are the
// server's call (its rules are long), shown on the field like its other answers.

export function ProfileForm({ initial, countries }: { initial: ProfileSettings; countries: SettingsCountry[] }) {
  const { t } = useSettings();
  const form = useProfileForm(initial);
  return (
    <form className="form" onSubmit={form.submit} noValidate>
      <FormAlert message={form.failure.summary} />
      <CountryField
        countries={countries}
        countryId={form.countryId}
        onChange={form.setCountryId}
        error={form.failure.fields.country_id}
      />
      <BioField bio={form.bio} onChange={form.setBio} error={form.failure.fields.bio} />
      <fieldset className="fieldset">
        <legend className="subhead">{t('settings.profile.notifications')}</legend>
        <IntervalField
          minutes={form.minutes}
          onChange={form.setMinutes}
          error={form.failure.fields.notify_trade_messages_interval}
        />
        <FlagList flags={form.flags} onChange={form.setFlags} />
      </fieldset>
      <div className="button-row">
        <SubmitButton busy={form.busy}>{t('settings.profile.save')}</SubmitButton>
      </div>
      <StatusLine message={form.done} />
    </form>
  );
}

/** The person's country: listings, the calculator and the start rules follow it (issue 19). */
function CountryField({
  countries,
  countryId,
  onChange,
  error,
}: {
  countries: SettingsCountry[];
  countryId: number | null;
  onChange(id: number): void;
  error: string | undefined;
}) {
  const { t } = useSettings();
  return (
    <Field
      id="settings-country"
      label={t('settings.profile.country')}
      error={error}
      hint={t('settings.profile.countryHint')}
    >
      <select
        {...fieldAria('settings-country', error, true)}
        className="input"
        value={countryId ?? ''}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {countryId === null && <option value="" />}
        {countries.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.currency})
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The bio with its live count of characters and lines. */
function BioField({ bio, onChange, error }: { bio: string; onChange(bio: string): void; error: string | undefined }) {
  const { t } = useSettings();
  const normalized = normalizeBio(bio);
  const length = bioLength(normalized);
  const lines = bioLineCount(normalized);
  return (
    <Field
      id="settings-bio"
      label={t('settings.profile.bio')}
      error={error}
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
        {...fieldAria('settings-bio', error, true)}
        className="input"
        value={bio}
        onChange={(e) => onChange(e.target.value)}
        rows={5}
      />
    </Field>
  );
}

function IntervalField({
  minutes,
  onChange,
  error,
}: {
  minutes: string;
  onChange(minutes: string): void;
  error: string | undefined;
}) {
  const { t } = useSettings();
  return (
    <Field
      id="settings-interval"
      label={t('settings.profile.interval')}
      error={error}
      hint={t('settings.profile.intervalHint', { max: NOTIFY_INTERVAL_MAX_MINUTES })}
    >
      <input
        {...fieldAria('settings-interval', error, true)}
        className="input input-short"
        inputMode="numeric"
        pattern="[0-9]*"
        value={minutes}
        onChange={(e) => onChange(e.target.value)}
        maxLength={4}
      />
    </Field>
  );
}

function FlagList({ flags, onChange }: { flags: Record<Flag, boolean>; onChange(flags: Record<Flag, boolean>): void }) {
  const { t } = useSettings();
  return (
    <div className="checkbox-list">
      {FLAGS.map((flag) => (
        <label className="checkbox" key={flag}>
          <input
            type="checkbox"
            name={flag}
            checked={flags[flag]}
            onChange={(e) => onChange({ ...flags, [flag]: e.target.checked })}
          />
          <span>{t(`settings.profile.flag.${flag}`)}</span>
        </label>
      ))}
    </div>
  );
}
