// Merchants' webhooks (issue 21, docs/webhooks.md): the events a webhook may follow, the states
// the screen and the API share, and the retry schedule of a delivery. Isomorphic: the server's
// rules and the /webhooks screen read the same lists.

/** Every event a merchant may follow, in the order the screen lists them. */
export const WEBHOOK_EVENTS = [
  'trade.started',
  'trade.chat_message_received',
  'trade.attachment_uploaded',
  'trade.paid',
  'trade.cancelled_or_expired',
  'trade.crypto_sold',
  'trade.crypto_bought',
  'trade.dispute_started',
  'trade.dispute_resolved',
  'trade.reopened',
  'wallet.deposit_pending',
  'wallet.deposit_confirmed',
  'feedback.received',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** The event `POST /rest/v1/webhooks/test` sends; every enabled webhook gets it, unselected. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** The body type of the verification request (never stored as a delivery). */
export const WEBHOOK_VERIFY_EVENT = 'webhook.verify';

export const isWebhookEvent = (name: string): name is WebhookEventName =>
  (WEBHOOK_EVENTS as readonly string[]).includes(name);

/** Spec section 4, "Webhook": initial (no URL), enabled, disabled (a URL that receives nothing). */
export type WebhookStatus = 'initial' | 'enabled' | 'disabled';

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Seconds to wait after each failed attempt before the next: exponential, about a day in all
 * (23 h 42 min). After the last one the delivery has failed and the webhook is disabled.
 */
export const WEBHOOK_RETRY_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800] as const;

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

/** Why a verification failed, as `meta.reason` of WEBHOOK_VERIFICATION_FAILED names it. */
export const VERIFY_FAILURES = ['dns', 'unreachable', 'timeout', 'redirect', 'status', 'wrong_challenge'] as const;
export type VerifyFailure = (typeof VERIFY_FAILURES)[number];

/** The merchant's webhook as `GET /rest/v1/webhooks` answers it. */
export interface WebhookView {
  url: string | null;
  enabled: boolean;
  status: WebhookStatus;
  /** Set when the platform disabled the webhook: every retry of a delivery failed for a day. */
  disabledReason: 'deliveries_failed' | null;
  /** `whsec_…`: the Standard Webhooks signing secret. */
  secret: string;
  /** Unix seconds until which the previous secret still signs beside this one; null when none. */
  previousSecretExpiresAt: number | null;
  events: { name: WebhookEventName; checked: boolean }[];
  /** How deliveries are signed and shaped: Standard Webhooks 1.0, JSON bodies. */
  notificationType: 'standard_webhooks';
}

/** One delivery in the log. */
export interface WebhookDeliveryView {
  /** `msg_…`: the `webhook-id` header, the same on every attempt. */
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  /** The last attempt's HTTP status; null when none answered. */
  responseStatus: number | null;
  latencyMs: number | null;
  /** Why the last attempt failed, in short. */
  error: string | null;
  /** Unix seconds. */
  createdAt: number;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
}
