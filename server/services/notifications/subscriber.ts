import type { BusEvent, EventBus } from '../../realtime/bus.ts';
import { type ServiceContext, systemContext } from '../context.ts';
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

type TellInput = Omit<NotifyInput, 'userId' | 'link' | 'message'> & { key: NotifyInput['message']['key'] };

/** The trade's amounts: the subtext of every trade notification unless it says otherwise. */
const amountOf = (event: TradeChangedPayload) => ({
  key: 'amount' as const,
  params: {
    fiatAmount: event.fiatAmount,
    currency: event.currency,
    cryptoAmount: event.cryptoAmount,
    cryptoCurrency: event.cryptoCurrency,
  },
});

/** Tells one party of the trade, naming the other party. */
function teller(event: TradeChangedPayload, notify: Notify) {
  const { tradeHash, link, buyerId } = event;
  const counterpartOf = (userId: number) => (userId === buyerId ? event.sellerUsername : event.buyerUsername);
  return (userId: number, input: TellInput) =>
    notify({
      userId,
      link,
      type: input.type,
      message: { key: input.key, params: { username: counterpartOf(userId), tradeHash } },
      subtext: input.subtext ?? amountOf(event),
      ...(input.sms ? { sms: input.sms } : {}),
    });
}

type Tell = ReturnType<typeof teller>;

/** paid/released/cancelled/resolved: a moderator's (or any resolve) to both, a party's to the other. */
function statusChanged(
  event: TradeChangedPayload & { action: 'paid' | 'released' | 'cancelled' | 'resolved' },
  tell: Tell,
  others: number[],
): void {
  const { buyerId, sellerId } = event;
  if (event.actorRole === 'moderator' || event.action === 'resolved') {
    const status = event.action === 'resolved' ? 'status_resolved' : (`status_${event.action}` as const);
    for (const id of [buyerId, sellerId]) {
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
}

/** The other party, and every moderator who is not a party, naming both parties. */
function disputed(event: TradeChangedPayload, notify: Notify, others: number[], moderatorIds: () => number[]): void {
  const tell = teller(event, notify);
  const parties = [event.buyerId, event.sellerId];
  for (const id of others) tell(id, { type: 'trade_disputed', key: 'trade_disputed' });
  for (const id of moderatorIds()) {
    if (parties.includes(id)) continue;
    notify({
      userId: id,
      link: event.link,
      type: 'trade_disputed',
      message: {
        key: 'trade_disputed',
        params: { username: `${event.buyerUsername} / ${event.sellerUsername}`, tradeHash: event.tradeHash },
      },
      subtext: amountOf(event),
    });
  }
}

function tradeChanged(event: TradeChangedPayload, notify: Notify, moderatorIds: () => number[]): void {
  const tell = teller(event, notify);
  const parties = [event.buyerId, event.sellerId];
  const others = event.actorId === null ? parties : parties.filter((id) => id !== event.actorId);
  const byModerator = event.actorRole === 'moderator';

  switch (event.action) {
    case 'started':
      tell(event.ownerId, { type: 'trade_started_receiver', key: 'trade_started_receiver', sms: 'incomingTrade' });
      return;
    case 'paid':
    case 'released':
    case 'cancelled':
    case 'resolved':
      statusChanged({ ...event, action: event.action }, tell, others);
      return;
    case 'expired':
      for (const id of parties) tell(id, { type: 'trade_cancelled', key: 'trade_expired' });
      return;
    case 'disputed':
      disputed(event, notify, others, moderatorIds);
      return;
    case 'reopened':
      for (const id of parties) {
        tell(
          id,
          byModerator || event.actorRole === 'system'
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

function feedbackReceived(f: TradeFeedbackPayload, notify: Notify): void {
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

function verificationReviewed(event: BusEvent, notify: Notify): void {
  if (event.type !== 'verification.reviewed') return;
  const v = event.payload as VerificationReviewedPayload;
  notify({
    userId: v.userId,
    type: 'verification_reviewed',
    link: '/settings',
    message: { key: v.decision === 'approved' ? 'verification_approved' : 'verification_rejected' },
    ...(v.reason ? { subtext: { key: 'reason' as const, params: { reason: v.reason } } } : {}),
  });
}

function deviceReview(event: BusEvent, notify: Notify): void {
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
}

export interface SubscriberDeps {
  bus: EventBus;
  notifications: Pick<NotificationsService, 'notify' | 'activeTradesUpdated'>;
  repo: Pick<NotificationsRepository, 'moderatorIds' | 'recipient'>;
  log: (message: string, error?: unknown) => void;
}

/** The trades channel: status changes (and the active trades' reload), chat lines, feedback. */
function tradeEvent({ notifications, repo }: SubscriberDeps, ctx: ServiceContext, notify: Notify) {
  const username = (id: number) => repo.recipient(id)?.username;
  return (event: BusEvent) => {
    if (event.type === 'trade.changed') {
      const payload = event.payload as TradeChangedPayload;
      tradeChanged(payload, notify, repo.moderatorIds);
      for (const id of new Set([payload.buyerId, payload.sellerId])) {
        notifications.activeTradesUpdated(ctx, { userId: id, link: payload.link });
      }
    } else if (event.type === 'trade.message') {
      tradeMessage(event.payload as TradeMessagePayload, notify, username);
    } else if (event.type === 'trade.feedback') {
      feedbackReceived(event.payload as TradeFeedbackPayload, notify);
    }
  };
}

export function subscribeNotifications(deps: SubscriberDeps): () => void {
  const { bus, notifications, log } = deps;
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

  const stops = [
    bus.subscribe(TRADES_BUS_CHANNEL, guarded(tradeEvent(deps, ctx, notify))),
    bus.subscribe(
      VERIFICATION_BUS_CHANNEL,
      guarded((event) => verificationReviewed(event, notify)),
    ),
    bus.subscribe(
      DEVICES_BUS_CHANNEL,
      guarded((event) => deviceReview(event, notify)),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
