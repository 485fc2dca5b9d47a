import { index, integer, table, text } from './dialect.ts';
import { users } from './users.ts';

// What a person sets about themselves (spec section 3, "Settings and profile"), their second
// factor and their phone. One row per user where a table says so; created on first write.

export const userSettings = table('user_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bio: text('bio').notNull().default(''),
  /** Minutes between trade-message notifications (spec: default 10). */
  notifyTradeMessagesInterval: integer('notify_trade_messages_interval').notNull().default(10),
  soundNotifications: integer('sound_notifications', { mode: 'boolean' }).notNull().default(true),
  notifySmsBitcoinsConfirmed: integer('notify_sms_bitcoins_confirmed', { mode: 'boolean' }).notNull().default(false),
  notifySmsIncomingTrade: integer('notify_sms_incoming_trade', { mode: 'boolean' }).notNull().default(false),
  emailSubscribed: integer('email_subscribed', { mode: 'boolean' }).notNull().default(false),
  /** The eight cookie categories, serialized as in src/lib/shared/cookie-settings.ts; null = defaults. */
  cookieSettings: text('cookie_settings'),
  /** Relative URL of the processed avatar, or null. */
  avatarUrl: text('avatar_url'),
  telegramChatId: text('telegram_chat_id'),
  /** Random token in the bot link that ties a Telegram chat to this user; null when unsubscribed. */
  telegramLinkToken: text('telegram_link_token'),
  updatedAt: integer('updated_at').notNull(),
});

export const twoFactor = table('two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32 TOTP secret. */
  secret: text('secret').notNull(),
  /** Null until the person confirms a first code; only then does 2FA protect anything. */
  confirmedAt: integer('confirmed_at'),
  forLogin: integer('for_login', { mode: 'boolean' }).notNull().default(true),
  forSendout: integer('for_sendout', { mode: 'boolean' }).notNull().default(true),
  forRelease: integer('for_release', { mode: 'boolean' }).notNull().default(true),
  /** The last accepted TOTP time step: a code is accepted once only. */
  lastUsedStep: integer('last_used_step'),
  /** JSON array of SHA-256 hashes of the unused recovery codes. */
  recoveryCodeHashes: text('recovery_code_hashes', { mode: 'json' }).$type<string[]>().notNull(),
  createdAt: integer('created_at').notNull(),
});

export const phones = table(
  'phones',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** E.164: +4915123456789. */
    number: text('number').notNull(),
    verifiedAt: integer('verified_at'),
    /** SHA-256 of the pending code; null when none is pending. */
    codeHash: text('code_hash'),
    codeExpiresAt: integer('code_expires_at'),
    codeAttempts: integer('code_attempts').notNull().default(0),
    codesSentAt: text('codes_sent_at', { mode: 'json' }).$type<number[]>().notNull(),
  },
  (t) => [index('phones_number_idx').on(t.number)],
);

/**
 * Every code texted to a number, whoever asked: the per-number limit, so that many accounts
 * cannot aim codes at one phone (or pump SMS to a premium number). Rows older than a day go.
 */
export const smsSends = table(
  'sms_sends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** E.164. */
    number: text('number').notNull(),
    sentAt: integer('sent_at').notNull(),
  },
  (t) => [index('sms_sends_number_idx').on(t.number, t.sentAt)],
);
