import { newId } from '../../../db/ids.ts';
import { personalChannel } from '../../realtime/channels.ts';
import { immediate, type ServiceContext } from '../context.ts';
import type { NotificationsDeps } from './deps.ts';
import type { NotificationRow, Recipient } from './repository.ts';
import { ACTIVE_TRADES_UPDATED, TRADE_MESSAGE_TYPES, tabOf } from './types.ts';
import { localeOf, NOTIFICATION_EVENT, type NotificationView, type NotifyInput, renderNotification } from './view.ts';

/** Queues what leaves the system for this notification; inside notify's transaction. */
async function queueDeliveries(
  { repo }: NotificationsDeps,
  recipient: Recipient,
  row: NotificationRow,
  input: NotifyInput,
  fresh: boolean,
  at: number,
): Promise<void> {
  // A chat that goes on while unread is one message to the outside, not one per line.
  if (fresh && recipient.telegramChatId) {
    await repo.enqueueDelivery({
      userId: recipient.id,
      channel: 'telegram',
      kind: 'instant',
      notificationId: row.id,
      dueAt: at,
      at,
    });
  }
  if (TRADE_MESSAGE_TYPES.includes(input.type) && recipient.isEmailVerified) {
    // Spec section 3: notifyTradeMessagesInterval is the shortest time between two such e-mails;
    // the first waits one interval too, so a person reading on the site gets no mail at all.
    const interval = (recipient.notifyTradeMessagesInterval ?? 10) * 60_000;
    const last = await repo.lastDigestSentAt(recipient.id, 'email');
    await repo.enqueueDelivery({
      userId: recipient.id,
      channel: 'email',
      kind: 'digest',
      notificationId: null,
      dueAt: Math.max(at + interval, (last ?? 0) + interval),
      at,
    });
  }
  const smsWanted =
    (input.sms === 'incomingTrade' && recipient.notifySmsIncomingTrade) ||
    (input.sms === 'bitcoinsConfirmed' && recipient.notifySmsBitcoinsConfirmed);
  if (smsWanted && recipient.phoneNumber && recipient.phoneVerifiedAt !== null) {
    await repo.enqueueDelivery({
      userId: recipient.id,
      channel: 'sms',
      kind: 'instant',
      notificationId: row.id,
      dueAt: at,
      at,
    });
  }
}

/** The notification's row: its group's bumped (the flood rule), or a new one. */
function storeRow(
  { repo }: NotificationsDeps,
  input: NotifyInput,
  existing: NotificationRow | undefined,
  at: number,
): Promise<NotificationRow> {
  const messagePlaceholders = input.message.params ?? {};
  const subtextPlaceholders = input.subtext?.params ?? {};
  if (existing) return repo.bump(existing.id, { link: input.link, messagePlaceholders, subtextPlaceholders }, at);
  return repo.insert(
    {
      publicId: newId('ntf'),
      userId: input.userId,
      type: input.type,
      tab: tabOf(input.type),
      link: input.link,
      count: 1,
      messageTk: `notifications.msg.${input.message.key}`,
      messagePlaceholders,
      subtextTk: input.subtext ? `notifications.sub.${input.subtext.key}` : null,
      subtextPlaceholders,
      groupKey: input.groupKey ?? null,
    },
    at,
  );
}

/**
 * Stores one notification (or bumps its group's) with its deliveries in one transaction (a
 * savepoint inside a caller's), then pushes it to the person's open pages once that committed.
 * Call it after the commit of what it tells about. Undefined when the user does not exist.
 */
export async function notify(
  deps: NotificationsDeps,
  _ctx: ServiceContext,
  input: NotifyInput,
): Promise<NotificationView | undefined> {
  const { repo, bus } = deps;
  const at = deps.now();
  return immediate(repo.db, async (tx) => {
    const recipient = await repo.recipient(input.userId);
    if (!recipient) return undefined;
    const existing = input.groupKey ? await repo.byGroup(input.userId, input.groupKey) : undefined;
    const row = await storeRow(deps, input, existing, at);
    await queueDeliveries(deps, recipient, row, input, !existing || existing.isRead, at);
    // In the language the person chose; pushed after the commit (ARCHITECTURE.md, "Realtime").
    const view = renderNotification(row, localeOf(recipient));
    tx.afterCommit(() =>
      bus.publish(personalChannel('notifications', recipient.publicId), { type: NOTIFICATION_EVENT, payload: view }),
    );
    return view;
  });
}

/** Spec section 4: tells the person's pages to reload their active trades; nothing is stored. */
export async function activeTradesUpdated(
  { repo, bus }: NotificationsDeps,
  ctx: ServiceContext,
  { userId, link }: { userId: number; link: string },
): Promise<void> {
  const recipient = await repo.recipient(userId);
  if (!recipient) return;
  const publish = () =>
    bus.publish(personalChannel('notifications', recipient.publicId), {
      type: NOTIFICATION_EVENT,
      payload: { type: ACTIVE_TRADES_UPDATED, link },
    });
  // Inside a caller's transaction (the subscriber's), in order with its notifications after the commit.
  if (ctx.tx) ctx.tx.afterCommit(publish);
  else publish();
}
