import { asDatabase } from '../../../db/database.ts';
import type { BusEvent, EventBus } from '../../realtime/bus.ts';
import { immediate, type ServiceContext, systemContext } from '../context.ts';
import { disputeClockMoved } from './dispute-clock.ts';
import type { NotificationsService, NotifyInput } from './notifications.ts';
import { paymentDetailsChanged } from './payment-details.ts';
import type { NotificationsRepository } from './repository.ts';
import {
  AFFILIATES_BUS_CHANNEL,
  type AffiliateEarnedPayload,
  DEVICES_BUS_CHANNEL,
  type DeviceReviewRequestedPayload,
  type ReferralJoinedPayload,
  TRADES_BUS_CHANNEL,
  type TradeChangedPayload,
  type TradeDisputePayload,
  type TradeFeedbackPayload,
  type TradeMessagePayload,
  type TradePaymentDetailsPayload,
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
//   no payment details the seller, when a trade starts without them: trade_payment_details_missing
//   details written    the buyer: trade_payment_details (added or changed)
//   dispute clocks     taken → both parties; escalated → both parties, the moderator who missed
//                      it, the staff called; answer missed → the counterpart (dispute-clock.ts)
//   chat message       each recipient, one notification per trade and kind (count grows)
//   feedback           its receiver: feedback_received
//   verification       the person: verification_reviewed
//   new device         the account's owner: device_review
//   affiliate share    the affiliate: affiliate_earned (one per share)
//   referral sign-up   the referrer: referral_joined

type Notify = (input: NotifyInput) => Promise<unknown>;

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
async function statusChanged(
  event: TradeChangedPayload & { action: 'paid' | 'released' | 'cancelled' | 'resolved' },
  tell: Tell,
  others: number[],
): Promise<void> {
  const { buyerId, sellerId } = event;
  if (event.actorRole === 'moderator' || event.action === 'resolved') {
    const status = event.action === 'resolved' ? 'status_resolved' : (`status_${event.action}` as const);
    for (const id of [buyerId, sellerId]) {
      await tell(id, {
        type: 'trade_pushed_by_mod',
        key: 'trade_pushed_by_mod',
        subtext: { key: status },
        ...(event.action === 'released' && id === buyerId ? { sms: 'bitcoinsConfirmed' as const } : {}),
      });
    }
    return;
  }
  if (event.action === 'paid') for (const id of others) await tell(id, { type: 'trade_paid', key: 'trade_paid' });
  if (event.action === 'released') {
    await tell(buyerId, { type: 'trade_released', key: 'trade_released', sms: 'bitcoinsConfirmed' });
  }
  if (event.action === 'cancelled') {
    for (const id of others) await tell(id, { type: 'trade_cancelled', key: 'trade_cancelled' });
  }
}

/** The other party, and every moderator who is not a party, naming both parties. */
async function disputed(
  event: TradeChangedPayload,
  notify: Notify,
  others: number[],
  moderatorIds: () => Promise<number[]>,
): Promise<void> {
  const tell = teller(event, notify);
  const parties = [event.buyerId, event.sellerId];
  for (const id of others) await tell(id, { type: 'trade_disputed', key: 'trade_disputed' });
  for (const id of await moderatorIds()) {
    if (parties.includes(id)) continue;
    await notify({
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

async function tradeChanged(
  event: TradeChangedPayload,
  notify: Notify,
  moderatorIds: () => Promise<number[]>,
): Promise<void> {
  const tell = teller(event, notify);
  const parties = [event.buyerId, event.sellerId];
  const others = event.actorId === null ? parties : parties.filter((id) => id !== event.actorId);
  const byModerator = event.actorRole === 'moderator';

  switch (event.action) {
    case 'started':
      await tell(event.ownerId, {
        type: 'trade_started_receiver',
        key: 'trade_started_receiver',
        sms: 'incomingTrade',
      });
      return;
    case 'paid':
    case 'released':
    case 'cancelled':
    case 'resolved':
      await statusChanged({ ...event, action: event.action }, tell, others);
      return;
    case 'expired':
      for (const id of parties) await tell(id, { type: 'trade_cancelled', key: 'trade_expired' });
      return;
    case 'disputed':
      await disputed(event, notify, others, moderatorIds);
      return;
    case 'reopened':
      for (const id of parties) {
        await tell(
          id,
          byModerator || event.actorRole === 'system'
            ? { type: 'trade_reopened_by_moderator', key: 'trade_reopened_by_moderator' }
            : { type: 'trade_reopened', key: 'trade_reopened' },
        );
      }
      return;
  }
}

async function tradeMessage(
  event: TradeMessagePayload,
  notify: Notify,
  username: (id: number) => Promise<string | undefined>,
): Promise<void> {
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
  const author = event.authorId === null ? undefined : await username(event.authorId);
  for (const userId of event.recipientIds) {
    if (userId === event.authorId) continue;
    await notify({
      userId,
      type,
      link: event.link,
      message: { key: type, params: { username: author ?? '', tradeHash: event.tradeHash } },
      subtext: { key: 'count' },
      groupKey: `${type}:${event.tradeHash}`,
    });
  }
}

async function feedbackReceived(f: TradeFeedbackPayload, notify: Notify): Promise<void> {
  await notify({
    userId: f.toId,
    type: 'feedback_received',
    link: f.link,
    message: {
      key: f.rating === 'positive' ? 'feedback_positive' : 'feedback_negative',
      params: { username: f.fromUsername },
    },
  });
}

async function verificationReviewed(event: BusEvent, notify: Notify): Promise<void> {
  if (event.type !== 'verification.reviewed') return;
  const v = event.payload as VerificationReviewedPayload;
  await notify({
    userId: v.userId,
    type: 'verification_reviewed',
    link: '/settings',
    message: { key: v.decision === 'approved' ? 'verification_approved' : 'verification_rejected' },
    ...(v.reason ? { subtext: { key: 'reason' as const, params: { reason: v.reason } } } : {}),
  });
}

async function deviceReview(event: BusEvent, notify: Notify): Promise<void> {
  if (event.type !== 'device.review_requested') return;
  const d = event.payload as DeviceReviewRequestedPayload;
  await notify({
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

/** The affiliate programme: a share earned, someone signed up with the person's link. */
async function affiliateEvent(event: BusEvent, notify: Notify): Promise<void> {
  if (event.type === 'affiliate.earned') {
    // One event per release, so its shares become notifications in one transaction.
    for (const share of (event.payload as AffiliateEarnedPayload).shares)
      await notify({
        userId: share.affiliateId,
        type: 'affiliate_earned',
        link: '/affiliates',
        message: {
          key: 'affiliate_earned',
          params: { amount: share.amount, currency: share.currency, username: share.traderUsername },
        },
      });
  } else if (event.type === 'affiliate.referral_joined') {
    const e = event.payload as ReferralJoinedPayload;
    await notify({
      userId: e.referrerId,
      type: 'referral_joined',
      link: '/affiliates',
      message: { key: 'referral_joined', params: { username: e.username } },
    });
  }
}

export interface SubscriberDeps {
  bus: EventBus;
  notifications: Pick<NotificationsService, 'notify' | 'activeTradesUpdated'>;
  repo: Pick<NotificationsRepository, 'db' | 'moderatorIds' | 'recipient'>;
  log: (message: string, error?: unknown) => void;
}

/** The trades channel: status changes (and the active trades' reload), chat lines, feedback. */
async function tradeEvent(
  { notifications, repo }: SubscriberDeps,
  ctx: ServiceContext,
  event: BusEvent,
  notify: Notify,
) {
  const username = async (id: number) => (await repo.recipient(id))?.username;
  if (event.type === 'trade.changed') {
    const payload = event.payload as TradeChangedPayload;
    await tradeChanged(payload, notify, () => repo.moderatorIds());
    for (const id of new Set([payload.buyerId, payload.sellerId])) {
      await notifications.activeTradesUpdated(ctx, { userId: id, link: payload.link });
    }
  } else if (event.type === 'trade.message') {
    await tradeMessage(event.payload as TradeMessagePayload, notify, username);
  } else if (event.type === 'trade.payment_details') {
    await paymentDetailsChanged(event.payload as TradePaymentDetailsPayload, notify);
  } else if (event.type === 'trade.dispute') {
    await disputeClockMoved(event.payload as TradeDisputePayload, notify);
  } else if (event.type === 'trade.feedback') {
    await feedbackReceived(event.payload as TradeFeedbackPayload, notify);
  }
}

type Handle = (event: BusEvent, ctx: ServiceContext, notify: Notify) => Promise<void>;

/** The subscriber's hold on the bus. */
export interface NotificationsSubscription {
  stop(): void;
  /** Resolves once the work for every event published so far is done (tests; a graceful stop). */
  settled(): Promise<void>;
}

export function subscribeNotifications(deps: SubscriberDeps): NotificationsSubscription {
  const { bus, notifications, repo, log } = deps;
  // The subscriber acts for nobody in particular: the events' own actors are in their payloads.
  const system = systemContext('notifications');
  // A listener cannot wait: each event's work is one transaction of its own. On SQLite its turn at
  // the connection is taken as the event is published (db/access.ts serves turns in order), so
  // events become notifications in the order they came, and whatever reaches the database after
  // the publisher's next step already finds them. PostgreSQL has no such gate (transactions started
  // together run side by side, and a retried one may finish last), so there each event's
  // transaction starts when the one before it ended: the order holds on both engines. Each
  // notify() is a savepoint in it and pushes to the open pages after the commit.
  const ordered = asDatabase(repo.db).dialect === 'postgres';
  let last: Promise<void> = Promise.resolve();
  // Events published in one step (a release's trade change and its affiliate shares, in one
  // after-commit loop) share a transaction: one commit, where SQLite's durable commits each cost a
  // flush to disk. The batch closes when its transaction starts; later events start the next.
  let open: { event: BusEvent; handle: Handle }[] | undefined;
  const guarded = (handle: Handle) => (event: BusEvent) => {
    if (open) {
      open.push({ event, handle });
      return;
    }
    const batch = [{ event, handle }];
    open = batch;
    const work = () =>
      immediate(repo.db, async (tx) => {
        // One turn of the microtask queue: the publisher's synchronous step has published the rest.
        await Promise.resolve();
        if (open === batch) open = undefined;
        const ctx: ServiceContext = { ...system, tx };
        for (const item of batch) {
          // A malformed event must not stop the next one (the bus isolates listeners, not events);
          // what it notified before failing stays, as each notify() is done when it returns.
          try {
            await item.handle(item.event, ctx, (input) => notifications.notify(ctx, input));
          } catch (error) {
            log(`notifications: could not handle ${item.event.type}`, error);
          }
        }
      }).catch((error: unknown) => log(`notifications: could not handle ${event.type}`, error));
    last = ordered ? last.then(work) : work();
  };

  const stops = [
    bus.subscribe(
      TRADES_BUS_CHANNEL,
      guarded((event, ctx, notify) => tradeEvent(deps, ctx, event, notify)),
    ),
    bus.subscribe(
      VERIFICATION_BUS_CHANNEL,
      guarded((event, _ctx, notify) => verificationReviewed(event, notify)),
    ),
    bus.subscribe(
      AFFILIATES_BUS_CHANNEL,
      guarded((event, _ctx, notify) => affiliateEvent(event, notify)),
    ),
    bus.subscribe(
      DEVICES_BUS_CHANNEL,
      guarded((event, _ctx, notify) => deviceReview(event, notify)),
    ),
  ];
  return {
    stop() {
      for (const stop of stops) stop();
    },
    // On SQLite the last event's transaction ends after every earlier one (turns in order).
    settled: () => last,
  };
}
