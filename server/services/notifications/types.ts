// The notification types (spec section 3, "Notification": the first eight; the rest are ours for
// the trade events the spec's list does not name) and where each goes.

export const NOTIFICATION_TYPES = [
  'moderator_message',
  'trade_reopened_by_moderator',
  'trade_started_receiver',
  'trade_msg_received',
  'trade_pushed_by_mod',
  'trade_attach_uploaded_by_moderator',
  'trade_attach_uploaded',
  'trade_paid',
  'trade_released',
  'trade_cancelled',
  'trade_disputed',
  'trade_reopened',
  'feedback_received',
  'verification_reviewed',
  'device_review',
  'affiliate_earned',
  'referral_joined',
  'webhook_disabled',
  'kiosk_purchase',
  // A month's signed statement is ready (issue 24; docs/decisions/147-signed-statements.md).
  'statement_ready',
  // A person's data export is ready to download (issue 24; docs/decisions/158-data-exports.md).
  'export_ready',
  'trade_payment_details_missing',
  'trade_payment_details',
  // A dispute's clocks (issue 24; docs/decisions/155-dispute-escalation.md).
  'trade_dispute_taken',
  'trade_dispute_escalated',
  'trade_dispute_answer_missed',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Not stored: tells the open pages to reload the active trades (spec section 4). */
export const ACTIVE_TRADES_UPDATED = 'system:active_trades_updated';

/** Spec section 4: moderator types go to the moderators tab; the others to inbox. */
export const MODERATOR_TYPES: ReadonlySet<NotificationType> = new Set([
  'moderator_message',
  'trade_reopened_by_moderator',
  'trade_pushed_by_mod',
  'trade_attach_uploaded_by_moderator',
]);

export const tabOf = (type: NotificationType) => (MODERATOR_TYPES.has(type) ? 'moderators' : 'inbox');

/** Chat activity: grouped per trade, e-mailed as a digest, marked read when its page is open. */
export const TRADE_MESSAGE_TYPES: readonly NotificationType[] = [
  'trade_msg_received',
  'trade_attach_uploaded',
  'moderator_message',
  'trade_attach_uploaded_by_moderator',
];

export const TABS = ['inbox', 'moderators'] as const;

/** Message keys under `notifications.msg.` / `notifications.sub.` in locales/*.json. */
export type NotificationMessageKey =
  | 'trade_started_receiver'
  | 'trade_msg_received'
  | 'trade_attach_uploaded'
  | 'moderator_message'
  | 'trade_attach_uploaded_by_moderator'
  | 'trade_paid'
  | 'trade_released'
  | 'trade_cancelled'
  | 'trade_expired'
  | 'trade_disputed'
  | 'trade_reopened'
  | 'trade_reopened_by_moderator'
  | 'trade_pushed_by_mod'
  | 'feedback_positive'
  | 'feedback_negative'
  | 'verification_approved'
  | 'verification_rejected'
  | 'device_review'
  | 'affiliate_earned'
  | 'referral_joined'
  | 'webhook_disabled'
  | 'kiosk_purchase'
  | 'statement_ready'
  | 'export_ready'
  | 'trade_payment_details_missing'
  | 'trade_payment_details_added'
  | 'trade_payment_details_changed'
  | 'trade_dispute_taken'
  | 'trade_dispute_escalated_moderators'
  | 'trade_dispute_escalated_admins'
  | 'trade_dispute_overdue'
  | 'trade_dispute_unassigned'
  | 'trade_dispute_answer_missed';

export type NotificationSubtextKey =
  | 'amount'
  | 'count'
  | 'status_paid'
  | 'status_released'
  | 'status_cancelled'
  | 'status_resolved'
  | 'reason'
  | 'device';
