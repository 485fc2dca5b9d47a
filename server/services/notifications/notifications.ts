import { newId } from '../../../db/ids.ts';
import { defaultLocale, isLocale, type Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { type MessageKey, translate } from '../../../src/lib/shared/i18n/messages.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { personalChannel } from '../../realtime/channels.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import type { NotificationRow, NotificationsRepository, NotificationTab, ReadFilter, Recipient } from './repository.ts';
import {
  ACTIVE_TRADES_UPDATED,
  type NotificationMessageKey,
  type NotificationSubtextKey,
  type NotificationType,
  TRADE_MESSAGE_TYPES,
  tabOf,
} from './types.ts';

// Notifications of spec sections 3 and 4: stored per person, texts as translation keys rendered
// in the reader's language, grouped per trade for chat activity, pushed live on the person's
// `notifications:<usr_…>` channel after the commit, and queued in the same transaction for
// e-mail, SMS and Telegram (deliveries.ts sends them).

type Params = Record<string, string | number>;

export interface NotifyInput {
  userId: number;
  type: NotificationType;
  /** A path on this site. */
  link: string;
  message: { key: NotificationMessageKey; params?: Params };
  subtext?: { key: NotificationSubtextKey; params?: Params };
  /** Notifications with the same key are one (spec section 4's flood rule): `trade_msg_received:<hash>`. */
  groupKey?: string;
  /** A text message too, when the person asked for it in their settings (spec section 3). */
  sms?: 'incomingTrade' | 'bitcoinsConfirmed';
}

/** The spec's notification (section 3), rendered for one reader. */
export interface NotificationView {
  id: string;
  link: string;
  count: number;
  message: string;
  messageTk: string;
  messagePlaceholders: Params;
  subtext: string | null;
  subtextTk: string | null;
  subtextPlaceholders: Params;
  type: string;
  /** Unix seconds. */
  createdAt: number;
  updatedAt: number;
  isRead: boolean;
}

export interface ListInput {
  tab: NotificationTab;
  types?: readonly string[] | undefined;
  read: ReadFilter;
  limit: number;
  offset: number;
  /** The reader's language, for the rendered texts. */
  locale: Locale;
}

/** Unread counts: per tab and in all. */
export interface UnreadCounts {
  inbox: number;
  moderators: number;
  total: number;
}

export const NOTIFICATION_EVENT = 'notification';
export const COUNTS_EVENT = 'notifications_counts';

const seconds = (ms: number) => Math.floor(ms / 1000);

export function renderNotification(row: NotificationRow, locale: Locale): NotificationView {
  // `{count}` is the row's own: how many chat messages it stands for.
  const text = (key: string, params: Params) => translate(locale, key as MessageKey, { count: row.count, ...params });
  return {
    id: row.publicId,
    link: row.link,
    count: row.count,
    message: text(row.messageTk, row.messagePlaceholders),
    messageTk: row.messageTk,
    messagePlaceholders: row.messagePlaceholders,
    subtext: row.subtextTk ? text(row.subtextTk, row.subtextPlaceholders) : null,
    subtextTk: row.subtextTk,
    subtextPlaceholders: row.subtextPlaceholders,
    type: row.type,
    createdAt: seconds(row.createdAt),
    updatedAt: seconds(row.updatedAt),
    isRead: row.isRead,
  };
}

const localeOf = (recipient: Pick<Recipient, 'locale'> | undefined): Locale =>
  recipient && isLocale(recipient.locale) ? recipient.locale : defaultLocale;

export function createNotificationsService({
  repo,
  bus,
  now,
}: {
  repo: NotificationsRepository;
  bus: EventBus;
  now: () => number;
}) {
  const counts = (userId: number): UnreadCounts => {
    const byTab = repo.unreadByTab(userId);
    return { ...byTab, total: byTab.inbox + byTab.moderators };
  };

  const publishCounts = (userId: number) => {
    const recipient = repo.recipient(userId);
    if (recipient) {
      bus.publish(personalChannel('notifications', recipient.publicId), {
        type: COUNTS_EVENT,
        payload: counts(userId),
      });
    }
  };

  /** Queues what leaves the system for this notification; inside notify's transaction. */
  const queueDeliveries = (
    recipient: Recipient,
    row: NotificationRow,
    input: NotifyInput,
    fresh: boolean,
    at: number,
  ) => {
    // A chat that goes on while unread is one message to the outside, not one per line.
    if (fresh && recipient.telegramChatId) {
      repo.enqueueDelivery({
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
      const last = repo.lastDigestSentAt(recipient.id, 'email');
      repo.enqueueDelivery({
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
      repo.enqueueDelivery({
        userId: recipient.id,
        channel: 'sms',
        kind: 'instant',
        notificationId: row.id,
        dueAt: at,
        at,
      });
    }
  };

  return {
    /**
     * Stores one notification (or bumps its group's) with its deliveries in one transaction, then
     * pushes it to the person's open pages. Call it after the commit of what it tells about.
     * Undefined when the user does not exist.
     */
    notify(_ctx: ServiceContext, input: NotifyInput): NotificationView | undefined {
      const at = now();
      const stored = immediate(repo.db, () => {
        const recipient = repo.recipient(input.userId);
        if (!recipient) return undefined;
        const existing = input.groupKey ? repo.byGroup(input.userId, input.groupKey) : undefined;
        const messagePlaceholders = input.message.params ?? {};
        const subtextPlaceholders = input.subtext?.params ?? {};
        const row = existing
          ? repo.bump(existing.id, { link: input.link, messagePlaceholders, subtextPlaceholders }, at)
          : repo.insert(
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
        queueDeliveries(recipient, row, input, !existing || existing.isRead, at);
        return { row, recipient };
      });
      if (!stored) return undefined;
      // After the commit (ARCHITECTURE.md, "Realtime"), in the language the person chose.
      const view = renderNotification(stored.row, localeOf(stored.recipient));
      bus.publish(personalChannel('notifications', stored.recipient.publicId), {
        type: NOTIFICATION_EVENT,
        payload: view,
      });
      return view;
    },

    /** Spec section 4: tells the person's pages to reload their active trades; nothing is stored. */
    activeTradesUpdated(_ctx: ServiceContext, { userId, link }: { userId: number; link: string }): void {
      const recipient = repo.recipient(userId);
      if (!recipient) return;
      bus.publish(personalChannel('notifications', recipient.publicId), {
        type: NOTIFICATION_EVENT,
        payload: { type: ACTIVE_TRADES_UPDATED, link },
      });
    },

    list(ctx: PersonContext, input: ListInput) {
      const userId = ctx.auth.user.id;
      const rows = repo.list(
        { userId, tab: input.tab, types: input.types, read: input.read },
        input.limit,
        input.offset,
      );
      const unread = counts(userId);
      return {
        data: rows.slice(0, input.limit).map((row) => renderNotification(row, input.locale)),
        meta: {
          name: input.tab,
          numberOfUnread: input.types?.length
            ? repo.countUnread({ userId, tab: input.tab, types: input.types })
            : unread[input.tab],
          nextPageExist: rows.length > input.limit,
          unread,
        },
      };
    },

    /** Marks the caller's own notifications read; ids of others change nothing. */
    markRead(ctx: PersonContext, { ids }: { ids: readonly string[] }): { updated: number; unread: UnreadCounts } {
      const userId = ctx.auth.user.id;
      const updated = repo.markRead(userId, ids, false);
      if (updated > 0) publishCounts(userId);
      return { updated, unread: counts(userId) };
    },

    /** Read where they are shown (the trade page is open): read, and the chat's count back to zero. */
    resetCounters(ctx: PersonContext, { ids }: { ids: readonly string[] }): { updated: number; unread: UnreadCounts } {
      const userId = ctx.auth.user.id;
      const updated = repo.markRead(userId, ids, true);
      if (updated > 0) publishCounts(userId);
      return { updated, unread: counts(userId) };
    },

    /** Spec section 4: marking all read applies to one tab (and the caller's type filter). */
    markAll(ctx: PersonContext, filter: { tab: NotificationTab; types?: readonly string[] | undefined }) {
      const userId = ctx.auth.user.id;
      const updated = repo.markAll({ userId, tab: filter.tab, types: filter.types });
      if (updated > 0) publishCounts(userId);
      return { updated, unread: counts(userId) };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
