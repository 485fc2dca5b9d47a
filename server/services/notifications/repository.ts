import { and, desc, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { notificationDeliveries, notifications, phones, userSettings, users } from '../../../db/schema/index.ts';

// Statements of the notifications area, prepared once per database where their shape is fixed;
// the list and mark-all queries take a filter of the caller's types and so are built per call.

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
export type NotificationTab = NotificationRow['tab'];
export type DeliveryChannel = DeliveryRow['channel'];

/** Read filter of the list (the spec's `filter-action`). */
export type ReadFilter = 'all' | 'unread' | 'read';

export interface ListFilter {
  userId: number;
  tab: NotificationTab;
  types?: readonly string[] | undefined;
  read: ReadFilter;
}

const p = sql.placeholder;

/** What a delivery needs to know about its recipient, read when it is sent. */
export interface Recipient {
  id: number;
  publicId: string;
  username: string;
  email: string;
  isEmailVerified: boolean;
  locale: string;
  notifyTradeMessagesInterval: number | null;
  notifySmsBitcoinsConfirmed: boolean | null;
  notifySmsIncomingTrade: boolean | null;
  telegramChatId: string | null;
  phoneNumber: string | null;
  phoneVerifiedAt: number | null;
}

const listWhere = ({ userId, tab, types, read }: ListFilter): SQL | undefined =>
  and(
    eq(notifications.userId, userId),
    eq(notifications.tab, tab),
    types?.length ? inArray(notifications.type, [...types]) : undefined,
    read === 'all' ? undefined : eq(notifications.isRead, read === 'read'),
  );

/** A notification's own row: found by group or id, inserted, bumped by the flood rule. */
function notificationRows(db: Db) {
  const byGroup = db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, p('userId')), eq(notifications.groupKey, p('groupKey'))))
    .prepare();
  const insert = db.insert(notifications).values({
    publicId: sql`${p('publicId')}`,
    userId: sql`${p('userId')}`,
    type: sql`${p('type')}`,
    tab: sql`${p('tab')}`,
    link: sql`${p('link')}`,
    count: sql`${p('count')}`,
    messageTk: sql`${p('messageTk')}`,
    messagePlaceholders: sql`${p('messagePlaceholders')}`,
    subtextTk: sql`${p('subtextTk')}`,
    subtextPlaceholders: sql`${p('subtextPlaceholders')}`,
    groupKey: sql`${p('groupKey')}`,
    isRead: sql`0`,
    createdAt: sql`${p('at')}`,
    updatedAt: sql`${p('at')}`,
  });
  const insertReturning = insert.returning().prepare();
  // The flood rule (spec section 4): the group's row comes back on top, unread; its count grows
  // while it stays unread and starts again at 1 once it was read.
  const bump = db
    .update(notifications)
    .set({
      count: sql`CASE WHEN ${notifications.isRead} THEN 1 ELSE ${notifications.count} + 1 END`,
      isRead: false,
      link: sql`${p('link')}`,
      messagePlaceholders: sql`${p('messagePlaceholders')}`,
      subtextPlaceholders: sql`${p('subtextPlaceholders')}`,
      updatedAt: sql`${p('at')}`,
    })
    .where(eq(notifications.id, p('id')))
    .returning()
    .prepare();
  const byId = db
    .select()
    .from(notifications)
    .where(eq(notifications.id, p('id')))
    .prepare();

  return {
    byGroup: (userId: number, groupKey: string): NotificationRow | undefined => byGroup.get({ userId, groupKey }),
    byId: (id: number): NotificationRow | undefined => byId.get({ id }),
    insert(row: Omit<NewNotificationRow, 'id' | 'isRead' | 'createdAt' | 'updatedAt'>, at: number): NotificationRow {
      const inserted = insertReturning.get({
        ...row,
        count: row.count ?? 1,
        subtextTk: row.subtextTk ?? null,
        groupKey: row.groupKey ?? null,
        messagePlaceholders: JSON.stringify(row.messagePlaceholders),
        subtextPlaceholders: JSON.stringify(row.subtextPlaceholders),
        at,
      });
      if (!inserted) throw new Error('notification insert returned no row');
      return inserted;
    },
    bump(
      id: number,
      values: Pick<NotificationRow, 'link' | 'messagePlaceholders' | 'subtextPlaceholders'>,
      at: number,
    ): NotificationRow {
      const row = bump.get({
        id,
        link: values.link,
        messagePlaceholders: JSON.stringify(values.messagePlaceholders),
        subtextPlaceholders: JSON.stringify(values.subtextPlaceholders),
        at,
      });
      if (!row) throw new Error('notification bump returned no row');
      return row;
    },
  };
}

/** The list, its unread counts and marking read; these take the caller's filter, so are built per call. */
function notificationReads(db: Db) {
  const unreadByTab = db
    .select({ tab: notifications.tab, n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.userId, p('userId')), eq(notifications.isRead, false)))
    .groupBy(notifications.tab)
    .prepare();
  return {
    /** One page, newest first, and one more row to tell whether another page exists. */
    list(filter: ListFilter, limit: number, offset: number): NotificationRow[] {
      return db
        .select()
        .from(notifications)
        .where(listWhere(filter))
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(limit + 1)
        .offset(offset)
        .all();
    },
    countUnread(filter: Omit<ListFilter, 'read'>): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(notifications)
          .where(listWhere({ ...filter, read: 'unread' }))
          .get()?.n ?? 0
      );
    },
    unreadByTab(userId: number): Record<NotificationTab, number> {
      const counts = { inbox: 0, moderators: 0 };
      for (const { tab, n } of unreadByTab.all({ userId })) counts[tab] = n;
      return counts;
    },
    /** The caller's own rows among `publicIds`; another user's ids change nothing. */
    markRead(userId: number, publicIds: readonly string[], resetCount: boolean): number {
      if (publicIds.length === 0) return 0;
      return db
        .update(notifications)
        .set({ isRead: true, ...(resetCount ? { count: 0 } : {}) })
        .where(
          and(
            eq(notifications.userId, userId),
            inArray(notifications.publicId, [...publicIds]),
            resetCount ? undefined : eq(notifications.isRead, false),
          ),
        )
        .run().changes;
    },
    markAll(filter: Omit<ListFilter, 'read'>): number {
      return db
        .update(notifications)
        .set({ isRead: true })
        .where(listWhere({ ...filter, read: 'unread' }))
        .run().changes;
    },
    /** Unread rows of these types, newest first (the e-mail digest). */
    unreadOfTypes(userId: number, types: readonly string[], limit: number): NotificationRow[] {
      return db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, userId),
            eq(notifications.isRead, false),
            inArray(notifications.type, [...types]),
          ),
        )
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(limit)
        .all();
    },
  };
}

/** Who a notification goes to: a delivery's recipient, the moderators. */
function people(db: Db) {
  const recipient = db
    .select({
      id: users.id,
      publicId: users.publicId,
      username: users.username,
      email: users.email,
      isEmailVerified: users.isEmailVerified,
      locale: users.locale,
      notifyTradeMessagesInterval: userSettings.notifyTradeMessagesInterval,
      notifySmsBitcoinsConfirmed: userSettings.notifySmsBitcoinsConfirmed,
      notifySmsIncomingTrade: userSettings.notifySmsIncomingTrade,
      telegramChatId: userSettings.telegramChatId,
      phoneNumber: phones.number,
      phoneVerifiedAt: phones.verifiedAt,
    })
    .from(users)
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .leftJoin(phones, eq(phones.userId, users.id))
    .where(eq(users.id, p('userId')))
    .prepare();
  const moderators = db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.role, ['moderator', 'admin']), eq(users.status, 'active')))
    .prepare();

  return {
    recipient: (userId: number): Recipient | undefined => recipient.get({ userId }),
    moderatorIds: (): number[] => moderators.all().map((row) => row.id),
  };
}

/** Queueing a delivery and the job's claim and finish of it. */
function deliveryWrites(db: Db) {
  const insertDelivery = db
    .insert(notificationDeliveries)
    .values({
      userId: sql`${p('userId')}`,
      channel: sql`${p('channel')}`,
      kind: sql`${p('kind')}`,
      notificationId: sql`${p('notificationId')}`,
      dueAt: sql`${p('dueAt')}`,
      createdAt: sql`${p('at')}`,
    })
    // A digest already waiting takes the new messages along (the partial unique index).
    .onConflictDoNothing()
    .prepare();
  const claim = db
    .update(notificationDeliveries)
    .set({ claimedAt: sql`${p('at')}` })
    .where(
      and(
        eq(notificationDeliveries.id, p('id')),
        isNull(notificationDeliveries.claimedAt),
        isNull(notificationDeliveries.outcome),
      ),
    )
    .prepare();
  const finish = db
    .update(notificationDeliveries)
    .set({ outcome: sql`${p('outcome')}`, sentAt: sql`${p('sentAt')}`, error: sql`${p('error')}` })
    .where(eq(notificationDeliveries.id, p('id')))
    .prepare();
  const interrupted = db
    .update(notificationDeliveries)
    .set({ outcome: 'interrupted' })
    .where(and(isNotNull(notificationDeliveries.claimedAt), isNull(notificationDeliveries.outcome)))
    .prepare();
  return {
    enqueueDelivery(row: {
      userId: number;
      channel: DeliveryChannel;
      kind: DeliveryRow['kind'];
      notificationId: number | null;
      dueAt: number;
      at: number;
    }): boolean {
      return insertDelivery.run(row).changes === 1;
    },
    /** False when another job took it first. */
    claim: (id: number, at: number): boolean => claim.run({ id, at }).changes === 1,
    finish: (id: number, outcome: NonNullable<DeliveryRow['outcome']>, sentAt: number | null, error: string | null) =>
      finish.run({ id, outcome, sentAt, error }),
    /** Rows a previous process claimed and never finished: it stopped mid-send. */
    markInterrupted: (): number => interrupted.run().changes,
  };
}

/** The delivery queue as read: what is due, what waits for a user, when a digest last went. */
function deliveryReads(db: Db) {
  const lastSent = db
    .select({ sentAt: sql<number | null>`max(${notificationDeliveries.sentAt})` })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.userId, p('userId')),
        eq(notificationDeliveries.channel, p('channel')),
        eq(notificationDeliveries.kind, 'digest'),
        eq(notificationDeliveries.outcome, 'sent'),
      ),
    )
    .prepare();
  const due = db
    .select()
    .from(notificationDeliveries)
    .where(
      and(
        isNull(notificationDeliveries.outcome),
        isNull(notificationDeliveries.claimedAt),
        lte(notificationDeliveries.dueAt, p('now')),
      ),
    )
    .orderBy(notificationDeliveries.dueAt, notificationDeliveries.id)
    .limit(p('limit'))
    .prepare();
  return {
    lastDigestSentAt: (userId: number, channel: DeliveryChannel): number | null =>
      lastSent.get({ userId, channel })?.sentAt ?? null,
    dueDeliveries: (now: number, limit: number): DeliveryRow[] => due.all({ now, limit }),
    pendingDeliveries(userId: number): DeliveryRow[] {
      return db
        .select()
        .from(notificationDeliveries)
        .where(and(eq(notificationDeliveries.userId, userId), isNull(notificationDeliveries.outcome)))
        .all();
    },
    deliveries(userId: number): DeliveryRow[] {
      return db
        .select()
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.userId, userId))
        .orderBy(notificationDeliveries.id)
        .all();
    },
  };
}

export function createNotificationsRepository(db: Db) {
  return gated(db, {
    db,
    ...notificationRows(db),
    ...notificationReads(db),
    ...people(db),
    ...deliveryWrites(db),
    ...deliveryReads(db),
  });
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
