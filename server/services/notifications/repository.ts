import { and, count, desc, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { notificationDeliveries, notifications, phones, userSettings, users } from '../../../db/schema/index.ts';

// Statements of the notifications area, on either engine (db/database.ts): the hot reads are
// prepared once per database; the list and mark-all queries take a filter of the caller's types,
// and the writes are built per call.

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

/** Literal 0/1 rather than a parameter, so the partial index on unread rows (`is_read = 0`) applies. */
const isUnread = sql`${notifications.isRead} = 0`;
const isRead = sql`${notifications.isRead} = 1`;

const listWhere = ({ userId, tab, types, read }: ListFilter): SQL | undefined =>
  and(
    eq(notifications.userId, userId),
    eq(notifications.tab, tab),
    types?.length ? inArray(notifications.type, [...types]) : undefined,
    read === 'all' ? undefined : read === 'read' ? isRead : isUnread,
  );

/** A notification's own row: found by group or id, inserted, bumped by the flood rule. */
/** The insert of a new row, every value a placeholder; prepared by the caller. */
function newNotificationInsert({ orm }: Database) {
  return orm.insert(notifications).values({
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
}

function notificationRows(database: Database) {
  const { orm } = database;
  const byGroup = database.prepare(
    orm
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, p('userId')), eq(notifications.groupKey, p('groupKey')))),
  );
  const insert = newNotificationInsert(database);
  const insertReturning = database.prepare(insert.returning());
  // The flood rule (spec section 4): the group's row comes back on top, unread; its count grows
  // while it stays unread and starts again at 1 once it was read.
  const bump = database.prepare(
    orm
      .update(notifications)
      .set({
        count: sql`CASE WHEN ${notifications.isRead} = 1 THEN 1 ELSE ${notifications.count} + 1 END`,
        isRead: false,
        link: sql`${p('link')}`,
        messagePlaceholders: sql`${p('messagePlaceholders')}`,
        subtextPlaceholders: sql`${p('subtextPlaceholders')}`,
        updatedAt: sql`${p('at')}`,
      })
      .where(eq(notifications.id, p('id')))
      .returning(),
  );
  const byId = database.prepare(
    orm
      .select()
      .from(notifications)
      .where(eq(notifications.id, p('id'))),
  );

  return {
    byGroup: (userId: number, groupKey: string): Promise<NotificationRow | undefined> =>
      byGroup.get({ userId, groupKey }),
    byId: (id: number): Promise<NotificationRow | undefined> => byId.get({ id }),
    async insert(
      row: Omit<NewNotificationRow, 'id' | 'isRead' | 'createdAt' | 'updatedAt'>,
      at: number,
    ): Promise<NotificationRow> {
      const inserted = await insertReturning.get({
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
    async bump(
      id: number,
      values: Pick<NotificationRow, 'link' | 'messagePlaceholders' | 'subtextPlaceholders'>,
      at: number,
    ): Promise<NotificationRow> {
      const row = await bump.get({
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
function notificationReads(database: Database) {
  const { orm } = database;
  const unreadByTab = database.prepare(
    orm
      .select({ tab: notifications.tab, n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, p('userId')), isUnread))
      .groupBy(notifications.tab),
  );
  return {
    /** One page, newest first, and one more row to tell whether another page exists. */
    list(filter: ListFilter, limit: number, offset: number): Promise<NotificationRow[]> {
      return database.all(
        orm
          .select()
          .from(notifications)
          .where(listWhere(filter))
          .orderBy(desc(notifications.updatedAt), desc(notifications.id))
          .limit(limit + 1)
          .offset(offset),
      );
    },
    async countUnread(filter: Omit<ListFilter, 'read'>): Promise<number> {
      const row = await database.get(
        orm
          .select({ n: count() })
          .from(notifications)
          .where(listWhere({ ...filter, read: 'unread' })),
      );
      return row?.n ?? 0;
    },
    async unreadByTab(userId: number): Promise<Record<NotificationTab, number>> {
      const counts = { inbox: 0, moderators: 0 };
      for (const { tab, n } of await unreadByTab.all({ userId })) counts[tab] = n;
      return counts;
    },
    /** The caller's own rows among `publicIds`; another user's ids change nothing. */
    async markRead(userId: number, publicIds: readonly string[], resetCount: boolean): Promise<number> {
      if (publicIds.length === 0) return 0;
      const { changes } = await database.run(
        orm
          .update(notifications)
          .set({ isRead: true, ...(resetCount ? { count: 0 } : {}) })
          .where(
            and(
              eq(notifications.userId, userId),
              inArray(notifications.publicId, [...publicIds]),
              resetCount ? undefined : isUnread,
            ),
          ),
      );
      return changes;
    },
    async markAll(filter: Omit<ListFilter, 'read'>): Promise<number> {
      const { changes } = await database.run(
        orm
          .update(notifications)
          .set({ isRead: true })
          .where(listWhere({ ...filter, read: 'unread' })),
      );
      return changes;
    },
    /** Unread rows of these types, newest first (the e-mail digest). */
    unreadOfTypes(userId: number, types: readonly string[], limit: number): Promise<NotificationRow[]> {
      return database.all(
        orm
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, userId), isUnread, inArray(notifications.type, [...types])))
          .orderBy(desc(notifications.updatedAt), desc(notifications.id))
          .limit(limit),
      );
    },
  };
}

/** Who a notification goes to: a delivery's recipient, the moderators. */
function people(database: Database) {
  const { orm } = database;
  const recipient = database.prepare(
    orm
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
      .where(eq(users.id, p('userId'))),
  );
  const moderators = database.prepare(
    orm
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.role, ['moderator', 'admin']), eq(users.status, 'active'))),
  );

  return {
    recipient: (userId: number): Promise<Recipient | undefined> => recipient.get({ userId }),
    moderatorIds: async (): Promise<number[]> => (await moderators.all()).map((row) => row.id),
  };
}

/** Queueing a delivery and the job's claim and finish of it. */
function deliveryWrites(database: Database) {
  const { orm } = database;
  return {
    async enqueueDelivery(row: {
      userId: number;
      channel: DeliveryChannel;
      kind: DeliveryRow['kind'];
      notificationId: number | null;
      dueAt: number;
      at: number;
    }): Promise<boolean> {
      const { at, ...values } = row;
      const { changes } = await database.run(
        orm
          .insert(notificationDeliveries)
          .values({ ...values, createdAt: at })
          // A digest already waiting takes the new messages along (the partial unique index).
          .onConflictDoNothing(),
      );
      return changes === 1;
    },
    /** False when another job took it first. */
    async claim(id: number, at: number): Promise<boolean> {
      const { changes } = await database.run(
        orm
          .update(notificationDeliveries)
          .set({ claimedAt: at })
          .where(
            and(
              eq(notificationDeliveries.id, id),
              isNull(notificationDeliveries.claimedAt),
              isNull(notificationDeliveries.outcome),
            ),
          ),
      );
      return changes === 1;
    },
    finish: (id: number, outcome: NonNullable<DeliveryRow['outcome']>, sentAt: number | null, error: string | null) =>
      database.run(
        orm.update(notificationDeliveries).set({ outcome, sentAt, error }).where(eq(notificationDeliveries.id, id)),
      ),
    /** Rows a previous process claimed and never finished: it stopped mid-send. */
    async markInterrupted(): Promise<number> {
      const { changes } = await database.run(
        orm
          .update(notificationDeliveries)
          .set({ outcome: 'interrupted' })
          .where(and(isNotNull(notificationDeliveries.claimedAt), isNull(notificationDeliveries.outcome))),
      );
      return changes;
    },
  };
}

/** The delivery queue as read: what is due, what waits for a user, when a digest last went. */
function deliveryReads(database: Database) {
  const { orm } = database;
  const lastSent = database.prepare(
    orm
      .select({ sentAt: sql<number | null>`max(${notificationDeliveries.sentAt})`.mapWith(Number) })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.userId, p('userId')),
          eq(notificationDeliveries.channel, p('channel')),
          eq(notificationDeliveries.kind, 'digest'),
          eq(notificationDeliveries.outcome, 'sent'),
        ),
      ),
  );
  const due = database.prepare(
    orm
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
      .limit(p('limit')),
  );
  return {
    async lastDigestSentAt(userId: number, channel: DeliveryChannel): Promise<number | null> {
      return (await lastSent.get({ userId, channel }))?.sentAt ?? null;
    },
    dueDeliveries: (now: number, limit: number): Promise<DeliveryRow[]> => due.all({ now, limit }),
    pendingDeliveries(userId: number): Promise<DeliveryRow[]> {
      return database.all(
        orm
          .select()
          .from(notificationDeliveries)
          .where(and(eq(notificationDeliveries.userId, userId), isNull(notificationDeliveries.outcome))),
      );
    },
    deliveries(userId: number): Promise<DeliveryRow[]> {
      return database.all(
        orm
          .select()
          .from(notificationDeliveries)
          .where(eq(notificationDeliveries.userId, userId))
          .orderBy(notificationDeliveries.id),
      );
    },
  };
}

export function createNotificationsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    db: database,
    ...notificationRows(database),
    ...notificationReads(database),
    ...people(database),
    ...deliveryWrites(database),
    ...deliveryReads(database),
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
