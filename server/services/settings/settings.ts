import {
  type CookieSettings,
  parseCookieSettings,
  serializeCookieSettings,
} from '../../../src/lib/shared/cookie-settings.ts';
import {
  BIO_MAX_LENGTH,
  BIO_MAX_LINES,
  type BioIssueKey,
  bioIssue,
  checkNotifyInterval,
  type IntervalIssueKey,
  NOTIFY_INTERVAL_DEFAULT_MINUTES,
  NOTIFY_INTERVAL_MAX_MINUTES,
  normalizeBio,
} from '../../../src/lib/shared/profile-rules.ts';
import type { ProfileSettings } from '../../../src/lib/shared/views/settings.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, type FieldIssue } from '../errors.ts';
import type { UserRow } from '../shared/account-types.ts';
import type { ProfileValues, SettingsRepository, UserSettingsRow } from './repository.ts';

// The person's own settings (spec section 3, "Settings and profile"; rules of section 5,
// "Profile"). Failures carry the spec's translation key per field, so the form shows its own
// wording; the English message is for API clients.

export interface SettingsInput {
  bio?: string | undefined;
  /** As sent: the rule (digits only, at most a day) decides, not the body's type. */
  notify_trade_messages_interval?: unknown;
  soundNotifications?: boolean | undefined;
  notifySmsBitcoinsConfirmed?: boolean | undefined;
  notifySmsIncomingTrade?: boolean | undefined;
  emailSubscribed?: boolean | undefined;
  /** A countries table id; the listing, calculator and start rules follow it (issue 19). */
  country_id?: number | undefined;
}

/** What a user without a settings row has: the schema's column defaults. */
export const DEFAULT_PROFILE: Readonly<ProfileValues> = {
  bio: '',
  notifyTradeMessagesInterval: NOTIFY_INTERVAL_DEFAULT_MINUTES,
  soundNotifications: true,
  notifySmsBitcoinsConfirmed: false,
  notifySmsIncomingTrade: false,
  emailSubscribed: false,
};

const MESSAGES: Record<BioIssueKey | IntervalIssueKey, string> = {
  bio_max: `Use at most ${BIO_MAX_LENGTH} characters.`,
  bio_contact_error:
    'Leave contact details out of your bio: no phone numbers, e-mail or web addresses, or messenger names. Partners reach you in the trade chat.',
  bio_limit: `Use at most ${BIO_MAX_LINES} lines.`,
  notification_digits_error: 'Enter the minutes as a whole number, digits only.',
  notification_error: `Use at most ${NOTIFY_INTERVAL_MAX_MINUTES} minutes (one day).`,
};

const PARAMS: Record<BioIssueKey | IntervalIssueKey, Record<string, number>> = {
  bio_max: { max: BIO_MAX_LENGTH },
  bio_contact_error: {},
  bio_limit: { max: BIO_MAX_LINES },
  notification_digits_error: {},
  notification_error: { max: NOTIFY_INTERVAL_MAX_MINUTES },
};

const issue = (field: string, key: BioIssueKey | IntervalIssueKey): FieldIssue => ({
  field,
  message: MESSAGES[key],
  key,
  params: PARAMS[key],
});

function profileOf(row: UserSettingsRow | undefined): ProfileValues {
  if (!row) return { ...DEFAULT_PROFILE };
  return {
    bio: row.bio,
    notifyTradeMessagesInterval: row.notifyTradeMessagesInterval,
    soundNotifications: row.soundNotifications,
    notifySmsBitcoinsConfirmed: row.notifySmsBitcoinsConfirmed,
    notifySmsIncomingTrade: row.notifySmsIncomingTrade,
    emailSubscribed: row.emailSubscribed,
  };
}

function view(user: UserRow, row: UserSettingsRow | undefined): ProfileSettings {
  return {
    ...profileOf(row),
    securityQuestionsAnswered: false,
    telegramSubscribed: Boolean(row?.telegramChatId),
    usernameChanged: user.isUsernameChanged,
    countryId: user.countryId,
  };
}

export type UserSettingsView = ProfileSettings;

export interface SettingsDeps {
  repo: SettingsRepository;
  /** Whether a countries table id exists (server/services/places). */
  isCountry: (id: number) => Promise<boolean>;
  now: () => number;
}

export function createSettingsService({ repo, isCountry, now }: SettingsDeps) {
  return {
    async get(ctx: PersonContext): Promise<UserSettingsView> {
      const { user } = ctx.auth;
      return view(user, await repo.byUserId(user.id));
    },

    /** Changes the given values only; when any is invalid nothing is saved. */
    async update(ctx: PersonContext, input: SettingsInput): Promise<UserSettingsView> {
      const { user } = ctx.auth;
      const details: FieldIssue[] = [];
      const bio = input.bio === undefined ? undefined : normalizeBio(input.bio);
      const bioKey = bio === undefined ? null : bioIssue(bio);
      if (bioKey) details.push(issue('bio', bioKey));
      let interval: number | undefined;
      if (input.notify_trade_messages_interval !== undefined) {
        const checked = checkNotifyInterval(input.notify_trade_messages_interval);
        if (checked.ok) interval = checked.minutes;
        else details.push(issue('notify_trade_messages_interval', checked.key));
      }
      if (input.country_id !== undefined && !(await isCountry(input.country_id))) {
        details.push({ field: 'country_id', message: 'Choose a country from the list.', key: 'country_unknown' });
      }
      const first = details[0];
      if (first) {
        throw new AppError('ERROR_INPUT_VALIDATION', first.message, {
          field: first.field,
          details,
          ...(first.key ? { key: first.key, params: first.params ?? {} } : {}),
        });
      }

      return immediate(repo.db, async () => {
        const current = profileOf(await repo.byUserId(user.id));
        const next: ProfileValues = {
          bio: bio ?? current.bio,
          notifyTradeMessagesInterval: interval ?? current.notifyTradeMessagesInterval,
          soundNotifications: input.soundNotifications ?? current.soundNotifications,
          notifySmsBitcoinsConfirmed: input.notifySmsBitcoinsConfirmed ?? current.notifySmsBitcoinsConfirmed,
          notifySmsIncomingTrade: input.notifySmsIncomingTrade ?? current.notifySmsIncomingTrade,
          emailSubscribed: input.emailSubscribed ?? current.emailSubscribed,
        };
        await repo.upsertProfile(user.id, next, now());
        if (input.country_id !== undefined) await repo.setCountry(user.id, input.country_id);
        // The session's row was read at the start of this request: only a change made here is newer.
        return view({ ...user, countryId: input.country_id ?? user.countryId }, await repo.byUserId(user.id));
      });
    },

    /** The stored cookie choices, or null when this person never saved any. */
    async cookieSettings(ctx: PersonContext): Promise<CookieSettings | null> {
      const stored = (await repo.byUserId(ctx.auth.user.id))?.cookieSettings;
      return stored ? parseCookieSettings(stored) : null;
    },

    async saveCookieSettings(ctx: PersonContext, { settings }: { settings: CookieSettings }): Promise<void> {
      await repo.upsertCookieSettings(ctx.auth.user.id, serializeCookieSettings(settings), now());
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
