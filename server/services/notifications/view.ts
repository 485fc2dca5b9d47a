import { defaultLocale, isLocale, type Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { type MessageKey, translate } from '../../../src/lib/shared/i18n/messages.ts';
import type { NotificationRow, NotificationTab, ReadFilter, Recipient } from './repository.ts';
import type { NotificationMessageKey, NotificationSubtextKey, NotificationType } from './types.ts';

// What the notifications service takes and gives: its inputs, a notification rendered for one
// reader, the unread counts, and the events on the person's channel.

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

export const localeOf = (recipient: Pick<Recipient, 'locale'> | undefined): Locale =>
  recipient && isLocale(recipient.locale) ? recipient.locale : defaultLocale;
