import { sql } from 'drizzle-orm';
import { index, integer, table, text, uniqueIndex } from './dialect.ts';
import { users } from './users.ts';

// Notifications (spec section 3, "Notification"; section 4, "Notifications") and the durable
// queue that carries them to e-mail, SMS and Telegram (server/services/notifications/).

/**
 * One row per notification a person sees in the bell and on /notifications. The texts are not
 * stored: message and subtext are translation keys with their placeholders, rendered in the
 * reader's language at read time. A repeated chat message in one trade updates the row of its
 * `group_key` (the count grows) instead of adding rows (spec section 4: no flooding).
 */
export const notifications = table(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `ntf_…`: the id the API and the live events carry; row ids stay internal. */
    publicId: text('public_id').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The spec's types (`trade_msg_received`, …) and ours (`trade_paid`, …); see types.ts. */
    type: text('type').notNull(),
    /** `inbox` or `moderators` (spec section 4: moderator types go to the moderators tab). */
    tab: text('tab', { enum: ['inbox', 'moderators'] }).notNull(),
    /** A path on this site (`/trade/<hash>`, `/settings#devices`). */
    link: text('link').notNull(),
    /** How many events this row stands for (chat messages since it was last read). */
    count: integer('count').notNull().default(1),
    messageTk: text('message_tk').notNull(),
    messagePlaceholders: text('message_placeholders', { mode: 'json' })
      .$type<Record<string, string | number>>()
      .notNull(),
    subtextTk: text('subtext_tk'),
    subtextPlaceholders: text('subtext_placeholders', { mode: 'json' })
      .$type<Record<string, string | number>>()
      .notNull(),
    /** Rows with the same key (per user) are one notification: `trade_msg_received:<hash>`. */
    groupKey: text('group_key'),
    isRead: integer('is_read', { mode: 'boolean' }).notNull().default(false),
    /** Unix milliseconds; the API answers seconds (spec section 3). */
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('notifications_user_tab_idx').on(t.userId, t.tab, t.updatedAt),
    index('notifications_unread_idx').on(t.userId, t.tab).where(sql`${t.isRead} = 0`),
    uniqueIndex('notifications_group_idx').on(t.userId, t.groupKey),
  ],
);

/**
 * What still has to leave the system: one row per message to one person on one channel. A
 * restart finds pending rows again; a row is claimed (`claimed_at`) in a transaction before it
 * is sent and stamped `sent_at` after, so nothing is sent twice (docs/decisions/064-notification-deliveries.md, 2026-11-24
 * "Notification deliveries").
 */
export const notificationDeliveries = table(
  'notification_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms', 'telegram'] }).notNull(),
    /** `digest`: the unread trade messages at `due_at`; `instant`: the one notification. */
    kind: text('kind', { enum: ['digest', 'instant'] }).notNull(),
    notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'cascade' }),
    /** Unix ms: not before. */
    dueAt: integer('due_at').notNull(),
    /** Set when a job took it; a row claimed but never sent was cut short by a crash. */
    claimedAt: integer('claimed_at'),
    sentAt: integer('sent_at'),
    /** `sent`, `skipped` (nothing left to say), `failed` or `interrupted`; null while pending. */
    outcome: text('outcome', { enum: ['sent', 'skipped', 'failed', 'interrupted'] }),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('notification_deliveries_due_idx').on(t.dueAt).where(sql`${t.outcome} IS NULL`),
    // One pending digest per person and channel: new messages join the one already waiting.
    uniqueIndex('notification_deliveries_digest_idx')
      .on(t.userId, t.channel)
      .where(sql`${t.kind} = 'digest' AND ${t.outcome} IS NULL`),
    index('notification_deliveries_user_idx').on(t.userId, t.channel, t.sentAt),
  ],
);
