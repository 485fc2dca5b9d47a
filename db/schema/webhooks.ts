import { sql } from 'drizzle-orm';
import { DELIVERY_STATUSES } from '../../src/lib/shared/webhooks.ts';
import { check, index, inList, integer, primaryKey, table, text } from './dialect.ts';
import { users } from './users.ts';

// Merchants' webhooks (issue 21, docs/webhooks.md): one webhook per person, the events it follows,
// and the durable outbox of deliveries that services write in the transaction of the change they
// announce (server/services/webhooks/outbox.ts) and the delivery job empties.

export const webhooks = table(
  'webhooks',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null until a URL passed its verification and was saved (spec "initial"). */
    url: text('url'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
    /** `deliveries_failed` when the platform disabled it; null otherwise. */
    disabledReason: text('disabled_reason', { enum: ['deliveries_failed'] }),
    /** `whsec_…` (Standard Webhooks): signs every request; the merchant reads it on the screen. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, signing beside the new one until `previous_secret_until`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: integer('previous_secret_until'),
    /** The last URL that answered its challenge, and when (unix ms): saving it needs no second round. */
    verifiedUrl: text('verified_url'),
    verifiedAt: integer('verified_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [check('webhooks_enabled_check', sql`${t.enabled} = 0 OR ${t.url} IS NOT NULL`)],
);

/** The events a person's webhook follows (spec "events (name, checked)": a row is a checked one). */
export const webhookSubscriptions = table(
  'webhook_subscriptions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.event] }), index('webhook_subscriptions_event_idx').on(t.event, t.userId)],
);

/**
 * One event to one merchant: the exact body sent, and how its attempts went. Pending rows are the
 * outbox; the job claims one (`sending`), posts it and finishes it (delivered, or pending again at
 * the next retry, or failed after the last).
 */
export const webhookDeliveries = table(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `msg_…`: the `webhook-id` header, the same on every attempt so receivers drop repeats. */
    messageId: text('message_id').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The JSON body, byte for byte what is signed and sent. */
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Unix ms; set while pending. */
    nextAttemptAt: integer('next_attempt_at'),
    /** Unix ms: when a job claimed it (`sending`), for taking back what a stopped process held. */
    claimedAt: integer('claimed_at'),
    lastAttemptAt: integer('last_attempt_at'),
    responseStatus: integer('response_status'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_user_idx').on(t.userId, t.id),
    check('webhook_deliveries_status_check', inList('status', DELIVERY_STATUSES)),
  ],
);
