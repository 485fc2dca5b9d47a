import type { BusEvent, EventBus } from '../../realtime/bus.ts';
import { systemContext } from '../context.ts';
import type { NotificationsService, NotifyInput } from './notifications.ts';
import type { NotificationsRepository } from './repository.ts';
import {
  DEVICES_BUS_CHANNEL,
  type DeviceReviewRequestedPayload,
  TRADES_BUS_CHANNEL,
  type TradeChangedPayload,
  type TradeFeedbackPayload,
  type TradeMessagePayload,
  VERIFICATION_BUS_CHANNEL,
  type VerificationReviewedPayload,
} from './trade-events.ts';

// Turns the domain events other services publish after their commits into notifications
// (spec section 4; outline's "events after commit → processor"). Who hears what:
//
//   started            the offer's owner: trade_started_receiver (+ SMS if asked)
//   paid               a party's act → the other party: trade_paid
//   released           → the buyer: trade_released (+ SMS "bitcoin confirmed" if asked)
//   cancelled/expired  a party's act → the other party; the system's → both: trade_cancelled
//   disputed           the other party and every moderator: trade_disputed
//   by a moderator     paid/released/cancelled/resolved → both parties: trade_pushed_by_mod;
//                      reopened → both: trade_reopened_by_moderator
//   every change       both parties: system:active_trades_updated (not stored)
//   chat message       each recipient, one notification per trade and kind (count grows)
//   feedback           its receiver: feedback_received
//   verification       the person: verification_reviewed
//   new device         the account's owner: device_review

type Notify = (input: NotifyInput) => void;

function tradeChanged(event: TradeChangedPayload, notify: Notify, moderatorIds: () => number[]): void {
  const { tradeHash, link, buyerId, sellerId, actorRole } = event;
  const counterpartOf = (userId: number) => (userId === buyerId ? event.sellerUsername : event.buyerUsername);
  const amount = {
    key: 'amount' as const,
    params: {
      fiatAmount: event.fiatAmount,
      currency: event.currency,
      cryptoAmount: event.cryptoAmount,
      cryptoCurrency: event.cryptoCurrency,
    },
  };
  const tell = (
    userId: number,
    input: Omit<NotifyInput, 'userId' | 'link' | 'message'> & { key: NotifyInput['message']['key'] },
  ) =>
    notify({
      userId,
      link,
      type: input.type,
      message: { key: input.key, params: { username: counterpartOf(userId), tradeHash } },
      subtext: input.subtext ?? amount,
      ...(input.sms ? { sms: input.sms } : {}),
    });
  const parties = [buyerId, sellerId];
  const others = event.actorId === null ? parties : parties.filter((id) => id !== event.actorId);
  const byModerator = actorRole === 'moderator';

  switch (event.action) {
    case 'started':
      tell(event.ownerId, { type: 'trade_started_receiver', key: 'trade_started_receiver', sms: 'incomingTrade' });
      return;
    case 'paid':
    case 'released':
    case 'cancelled':
    case 'resolved':
      if (byModerator || event.action === 'resolved') {
        const status = event.action === 'resolved' ? 'status_resolved' : (`status_${event.action}` as const);
        for (const id of parties) {
          tell(id, {
            type: 'trade_pushed_by_mod',
            key: 'trade_pushed_by_mod',
            subtext: { key: status },
            ...(event.action === 'released' && id === buyerId ? { sms: 'bitcoinsConfirmed' as const } : {}),
          });
        }
        return;
      }
      if (event.action === 'paid') for (const id of others) tell(id, { type: 'trade_paid', key: 'trade_paid' });
      if (event.action === 'released') {
        tell(buyerId, { type: 'trade_released', key: 'trade_released', sms: 'bitcoinsConfirmed' });
      }
      if (event.action === 'cancelled') {
        for (const id of others) tell(id, { type: 'trade_cancelled', key: 'trade_cancelled' });
      }
      return;
    case 'expired':
      for (const id of parties) tell(id, { type: 'trade_cancelled', key: 'trade_expired' });
      return;
    case 'disputed':
      for (const id of others) tell(id, { type: 'trade_disputed', key: 'trade_disputed' });
      for (const id of moderatorIds()) {
        if (parties.includes(id)) continue;
        notify({
          userId: id,
          link,
          type: 'trade_disputed',
          message: {
            key: 'trade_disputed',
            params: { username: `${event.buyerUsername} / ${event.sellerUsername}`, tradeHash },
          },
          subtext: amount,
        });
      }
      return;
    case 'reopened':
      for (const id of parties) {
        tell(
          id,
          byModerator || actorRole === 'system'
            ? { type: 'trade_reopened_by_moderator', key: 'trade_reopened_by_moderator' }
            : { type: 'trade_reopened', key: 'trade_reopened' },
        );
      }
      return;
  }
}

function tradeMessage(event: TradeMessagePayload, notify: Notify, username: (id: number) => string | undefined): void {
  // The chat's own system lines repeat status changes that trade.changed already announced.
  if (event.authorRole === 'system') return;
  const moderator = event.authorRole === 'moderator';
  const type = moderator
    ? event.hasAttachment
      ? 'trade_attach_uploaded_by_moderator'
      : 'moderator_message'
    : event.hasAttachment
      ? 'trade_attach_uploaded'
      : 'trade_msg_received';
  const author = event.authorId === null ? undefined : username(event.authorId);
  for (const userId of event.recipientIds) {
    if (userId === event.authorId) continue;
    notify({
      userId,
      type,
      link: event.link,
      message: { key: type, params: { username: author ?? '', tradeHash: event.tradeHash } },
      subtext: { key: 'count' },
      groupKey: `${type}:${event.tradeHash}`,
    });
  }
}

export function subscribeNotifications({
  bus,
  notifications,
  repo,
  log,
}: {
  bus: EventBus;
  notifications: Pick<NotificationsService, 'notify' | 'activeTradesUpdated'>;
  repo: Pick<NotificationsRepository, 'moderatorIds' | 'recipient'>;
  log: (message: string, error?: unknown) => void;
}): () => void {
  // The subscriber acts for nobody in particular: the events' own actors are in their payloads.
  const ctx = systemContext('notifications');
  const notify: Notify = (input) => {
    notifications.notify(ctx, input);
  };
  const guarded = (handle: (event: BusEvent) => void) => (event: BusEvent) => {
    // A malformed event must not stop the next one (the bus isolates listeners, not events).
    try {
      handle(event);
    } catch (error) {
      log(`notifications: could not handle ${event.type}`, error);
    }
  };
  const username = (id: number) => repo.recipient(id)?.username;

  const stops = [
    bus.subscribe(
      TRADES_BUS_CHANNEL,
      guarded((event) => {
        if (event.type === 'trade.changed') {
          const payload = event.payload as TradeChangedPayload;
          tradeChanged(payload, notify, repo.moderatorIds);
          for (const id of new Set([payload.buyerId, payload.sellerId])) {
            notifications.activeTradesUpdated(ctx, { userId: id, link: payload.link });
          }
        } else if (event.type === 'trade.message') {
          tradeMessage(event.payload as TradeMessagePayload, notify, username);
        } else if (event.type === 'trade.feedback') {
          const f = event.payload as TradeFeedbackPayload;
          notify({
            userId: f.toId,
            type: 'feedback_received',
            link: f.link,
            message: {
              key: f.rating === 'positive' ? 'feedback_positive' : 'feedback_negative',
              params: { username: f.fromUsername },
            },
          });
        }
      }),
    ),
    bus.subscribe(
      VERIFICATION_BUS_CHANNEL,
      guarded((event) => {
        if (event.type !== 'verification.reviewed') return;
        const v = event.payload as VerificationReviewedPayload;
        notify({
          userId: v.userId,
          type: 'verification_reviewed',
          link: '/settings',
          message: { key: v.decision === 'approved' ? 'verification_approved' : 'verification_rejected' },
          ...(v.reason ? { subtext: { key: 'reason' as const, params: { reason: v.reason } } } : {}),
        });
      }),
    ),
    bus.subscribe(
      DEVICES_BUS_CHANNEL,
      guarded((event) => {
        if (event.type !== 'device.review_requested') return;
        const d = event.payload as DeviceReviewRequestedPayload;
        notify({
          userId: d.userId,
          type: 'device_review',
          link: '/settings#devices',
          message: { key: 'device_review' },
          subtext: {
            key: 'device',
            params: { browser: d.browser ?? '?', os: d.os ?? '?', ip: d.ip },
          },
        });
      }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
