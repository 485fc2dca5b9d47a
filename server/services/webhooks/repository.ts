import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { DeliveryStatus } from '../../../src/lib/shared/webhooks.ts';

// SQL of merchants' webhooks (issue 21), in the portable text both engines run
// (db/sql-client.ts): the webhook row, its events, and the deliveries outbox.

export interface WebhookRow {
  userId: number;
  url: string | null;
  enabled: number;
  disabledReason: 'deliveries_failed' | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  verifiedUrl: string | null;
  verifiedAt: number | null;
}

export interface DeliveryRow {
  id: number;
  messageId: string;
  userId: number;
  event: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface NewDelivery {
  messageId: string;
  userId: number;
  event: string;
  payload: string;
  at: number;
}

/** How one attempt went. */
export interface AttemptOutcome {
  at: number;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
}

const WEBHOOK_COLUMNS = `user_id AS userId, url, enabled, disabled_reason AS disabledReason, secret,
  previous_secret AS previousSecret, previous_secret_until AS previousSecretUntil, verified_url AS verifiedUrl,
  verified_at AS verifiedAt`;
const DELIVERY_COLUMNS = `id, message_id AS messageId, user_id AS userId, event, payload, status, attempts,
  next_attempt_at AS nextAttemptAt, last_attempt_at AS lastAttemptAt, response_status AS responseStatus,
  latency_ms AS latencyMs, error, created_at AS createdAt, delivered_at AS deliveredAt`;

const WEBHOOK = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = ?`;
const CREATE = `INSERT INTO webhooks (user_id, secret, created_at, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (user_id) DO NOTHING`;
const VERIFIED = 'UPDATE webhooks SET verified_url = ?, verified_at = ?, updated_at = ? WHERE user_id = ?';
const SAVE = `UPDATE webhooks SET url = ?, enabled = 1, disabled_reason = NULL, updated_at = ? WHERE user_id = ?`;
const REMOVE = `UPDATE webhooks SET url = NULL, enabled = 0, disabled_reason = NULL, verified_url = NULL,
  verified_at = NULL, updated_at = ? WHERE user_id = ?`;
const DISABLE = `UPDATE webhooks SET enabled = 0, disabled_reason = 'deliveries_failed', updated_at = ?
  WHERE user_id = ? AND enabled = 1`;
const ROTATE = `UPDATE webhooks SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ?
  WHERE user_id = ?`;
const SET_MERCHANT = 'UPDATE users SET is_merchant = 1 WHERE id = ? AND is_merchant = 0';
const EVENTS = 'SELECT event FROM webhook_subscriptions WHERE user_id = ?';
const CHECK_EVENT = `INSERT INTO webhook_subscriptions (user_id, event) VALUES (?, ?)
  ON CONFLICT (user_id, event) DO NOTHING`;
const UNCHECK_EVENT = 'DELETE FROM webhook_subscriptions WHERE user_id = ? AND event = ?';
const UNCHECK_ALL = 'DELETE FROM webhook_subscriptions WHERE user_id = ?';
/** The events `count` people's enabled webhooks follow (a text per count, each prepared once). */
const followingText = (count: number) => `SELECT s.user_id AS userId, s.event FROM webhook_subscriptions s
  JOIN webhooks w ON w.user_id = s.user_id AND w.enabled = 1
  WHERE s.user_id IN (${Array.from({ length: count }, () => '?').join(', ')})`;
const insertDeliveriesText = (rows: number) => `INSERT INTO webhook_deliveries
  (message_id, user_id, event, payload, status, attempts, next_attempt_at, created_at)
  VALUES ${Array.from({ length: rows }, () => "(?, ?, ?, ?, 'pending', 0, ?, ?)").join(', ')}`;
const DELIVERY = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE message_id = ?`;
const DELIVERY_OF = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE message_id = ? AND user_id = ?`;
const DELIVERIES = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE user_id = ? AND id < ?
  ORDER BY id DESC LIMIT ?`;
const DUE = `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
  ORDER BY next_attempt_at, id LIMIT ?`;
const CLAIM = `UPDATE webhook_deliveries SET status = 'sending', claimed_at = ? WHERE id = ? AND status = 'pending'`;
const DELIVERED = `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, next_attempt_at = NULL,
  claimed_at = NULL, last_attempt_at = @at, response_status = @responseStatus, latency_ms = @latencyMs,
  error = NULL, delivered_at = @at WHERE id = @id AND status = 'sending'`;
/** A failed attempt: pending again at `nextAttemptAt`, or failed for good when that is null. */
const ATTEMPT_FAILED = `UPDATE webhook_deliveries SET
  status = @status, attempts = attempts + 1,
  next_attempt_at = @nextAttemptAt, claimed_at = NULL, last_attempt_at = @at, response_status = @responseStatus,
  latency_ms = @latencyMs, error = @error WHERE id = @id AND status = 'sending'`;
/** What a webhook that stops receiving still had queued. */
const DROP_PENDING = `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claimed_at = NULL,
  error = ? WHERE user_id = ? AND status = 'pending'`;
const RESEND = `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, claimed_at = NULL,
  error = NULL WHERE id = ? AND status IN ('delivered', 'failed')`;
/** Deliveries a stopped process had claimed: at least once, so they go again. */
const RELEASE_STALE = `UPDATE webhook_deliveries SET status = 'pending', claimed_at = NULL, next_attempt_at = ?
  WHERE status = 'sending' AND claimed_at < ?`;

export function createWebhooksRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    db: database,
    webhook: (userId: number) => sql.get<WebhookRow>(WEBHOOK, [userId]),
    /** The person's row with a first secret; nothing when it exists. */
    create: (userId: number, secret: string, at: number) => sql.run(CREATE, [userId, secret, at, at]),
    markVerified: (userId: number, url: string, at: number) => sql.run(VERIFIED, [url, at, at, userId]),
    save: (userId: number, url: string, at: number) => sql.run(SAVE, [url, at, userId]),
    remove: (userId: number, at: number) => sql.run(REMOVE, [at, userId]),
    /** False when it was not enabled (another pass disabled it first). */
    disable: async (userId: number, at: number) => (await sql.run(DISABLE, [at, userId])).changes === 1,
    rotate: (userId: number, secret: string, previousUntil: number, at: number) =>
      sql.run(ROTATE, [previousUntil, secret, at, userId]),
    setMerchant: (userId: number) => sql.run(SET_MERCHANT, [userId]),
    events: async (userId: number) => (await sql.all<{ event: string }>(EVENTS, [userId])).map((row) => row.event),
    setEvent: (userId: number, event: string, checked: boolean) =>
      sql.run(checked ? CHECK_EVENT : UNCHECK_EVENT, [userId, event]),
    uncheckAll: (userId: number) => sql.run(UNCHECK_ALL, [userId]),
    /** What the enabled webhooks of `userIds` follow: one row per person and event. */
    following: (userIds: number[]) =>
      sql.all<{ userId: number; event: string }>(followingText(userIds.length), userIds),
    insertDeliveries: (rows: NewDelivery[]) =>
      sql.run(
        insertDeliveriesText(rows.length),
        rows.flatMap((row) => [row.messageId, row.userId, row.event, row.payload, row.at, row.at]),
      ),
    delivery: (messageId: string) => sql.get<DeliveryRow>(DELIVERY, [messageId]),
    deliveryOf: (userId: number, messageId: string) => sql.get<DeliveryRow>(DELIVERY_OF, [messageId, userId]),
    /** The person's deliveries, newest first, below row id `before`. */
    deliveries: (userId: number, before: number, limit: number) =>
      sql.all<DeliveryRow>(DELIVERIES, [userId, before, limit]),
    due: (now: number, limit: number) => sql.all<DeliveryRow>(DUE, [now, limit]),
    claim: async (id: number, at: number) => (await sql.run(CLAIM, [at, id])).changes === 1,
    delivered: (id: number, outcome: AttemptOutcome) => sql.run(DELIVERED, [{ id, ...outcome }]),
    attemptFailed: (id: number, outcome: AttemptOutcome, nextAttemptAt: number | null) =>
      sql.run(ATTEMPT_FAILED, [
        { id, ...outcome, nextAttemptAt, status: nextAttemptAt === null ? 'failed' : 'pending' },
      ]),
    dropPending: (userId: number, reason: string) => sql.run(DROP_PENDING, [reason, userId]),
    resend: async (id: number, at: number) => (await sql.run(RESEND, [at, id])).changes === 1,
    releaseStale: async (claimedBefore: number, at: number) =>
      (await sql.run(RELEASE_STALE, [at, claimedBefore])).changes,
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
