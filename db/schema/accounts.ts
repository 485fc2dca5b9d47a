import { index, integer, table, text, uniqueIndex } from './dialect.ts';
import { users } from './users.ts';

// Sessions, e-mail verification, sign-in throttling and the self-hosted challenge (accounts issue).

/**
 * One row per signed-in browser. The id is the SHA-256 of the cookie token, so a copy of the
 * database cannot be replayed as a login (Lucia's session guide).
 */
export const sessions = table(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The CSRF token bound to this session; echoed by the browser in X-CSRF-Token. */
    csrfToken: text('csrf_token').notNull(),
    /** Unix milliseconds. */
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    /**
     * The id the device list shows (`ses_…`, random): never the token or its hash, so a listed
     * id cannot be turned into a session.
     */
    publicId: text('public_id').notNull(),
    /** Unix milliseconds of the last request, written at most every few minutes. */
    lastUsedAt: integer('last_used_at').notNull(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
    uniqueIndex('sessions_public_id_idx').on(t.publicId),
  ],
);

/** Single-use links that prove an e-mail address; the token itself is never stored. */
export const emailVerifications = table(
  'email_verifications',
  {
    /** SHA-256 of the token in the link. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

/**
 * Sign-in attempts for the per-account and per-IP limits (sliding window): a row is reserved
 * before the password is checked and deleted when it was right, so what stays are failures and
 * attempts still being checked.
 */
export const authAttempts = table(
  'auth_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `account:<email>` or `ip:<address>`. */
    key: text('key').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('auth_attempts_key_at_idx').on(t.key, t.at)],
);

/**
 * When an account's owner was last told by mail that someone is guessing the password: at most
 * one such mail per sign-in window, claimed by one conditional upsert so parallel failures send one.
 */
export const signInAlerts = table('sign_in_alerts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Unix milliseconds. */
  sentAt: integer('sent_at').notNull(),
});

/** Proof-of-work challenges issued to the register and login forms; each can be used once. */
export const authChallenges = table(
  'auth_challenges',
  {
    id: text('id').primaryKey(),
    /** Leading zero bits the solution's SHA-256 must have. */
    difficulty: integer('difficulty').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [index('auth_challenges_expires_idx').on(t.expiresAt)],
);

/**
 * Messages to people (e-mail, SMS, telegram). The embedded default delivers here instead of to a
 * network; with SMTP configured, e-mail rows record what was handed to the server.
 */
export const outbox = table(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channel: text('channel', { enum: ['email', 'sms', 'telegram'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: integer('created_at').notNull(),
    /** When a real transport accepted it; null while only in the outbox. */
    deliveredAt: integer('delivered_at'),
  },
  (t) => [index('outbox_recipient_idx').on(t.recipient, t.createdAt)],
);
