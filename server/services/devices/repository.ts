import { and, eq, gt, or, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { devices, sessions } from '../../../db/schema/index.ts';

// Every statement of device review, prepared once per database, on either engine
// (db/database.ts): each method answers a promise.

export type DeviceRow = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;
/** What identifies a row just inserted, before its transaction is known to have committed. */
export type InsertedDevice = Pick<DeviceRow, 'id' | 'userId' | 'fingerprint' | 'createdAt'>;

const p = sql.placeholder;

/** The two writes of a review: the decision, and the place looked up after the sign-in. */
function reviewWrites(database: Database) {
  // Single use: only a still-pending row changes, so two clicks cannot both decide.
  const decide = database.prepare(
    database.orm
      .update(devices)
      .set({ status: sql`${p('status')}`, reviewedAt: sql`${p('at')}` })
      .where(and(eq(devices.id, p('id')), eq(devices.status, 'pending'))),
  );
  // City and country, written after the sign-in's commit (devices.ts). Matched on more than the
  // id: were that transaction rolled back, the id could come back for another row.
  const setPlace = database.prepare(
    database.orm
      .update(devices)
      .set({ city: sql`${p('city')}`, country: sql`${p('country')}` })
      .where(
        and(
          eq(devices.id, p('id')),
          eq(devices.userId, p('userId')),
          eq(devices.fingerprint, p('fingerprint')),
          eq(devices.createdAt, p('createdAt')),
        ),
      ),
  );
  return { decide, setPlace };
}

export function createDevicesRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const anyOfUser = database.prepare(
    database.orm
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.userId, p('userId')))
      .limit(1),
  );
  // Known: confirmed, or pending with a link that still works (an expired one asks again).
  const known = database.prepare(
    database.orm
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.userId, p('userId')),
          eq(devices.fingerprint, p('fingerprint')),
          or(
            eq(devices.status, 'confirmed'),
            and(eq(devices.status, 'pending'), gt(devices.createdAt, p('pendingSince'))),
          ),
        ),
      )
      .limit(1),
  );
  // Any device of the person from this exact address, or this browser on this network.
  const sameClient = database.prepare(
    database.orm
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(eq(devices.userId, p('userId')), or(eq(devices.ip, p('ip')), eq(devices.fingerprint, p('fingerprint')))),
      )
      .limit(1),
  );
  const pendingByToken = database.prepare(
    database.orm
      .select()
      .from(devices)
      .where(
        and(
          eq(devices.reviewTokenHash, p('tokenHash')),
          eq(devices.status, 'pending'),
          gt(devices.createdAt, p('pendingSince')),
        ),
      ),
  );
  const { decide, setPlace } = reviewWrites(database);
  const sessionsOfUser = database.prepare(
    database.orm
      .select({ id: sessions.id, ip: sessions.ip, userAgent: sessions.userAgent })
      .from(sessions)
      .where(eq(sessions.userId, p('userId'))),
  );

  return {
    db: database,
    hasAny: async (userId: number) => (await anyOfUser.get({ userId })) !== undefined,
    usedFrom: async (userId: number, ip: string, fingerprint: string) =>
      (await sameClient.get({ userId, ip, fingerprint })) !== undefined,
    isKnown: async (userId: number, fingerprint: string, pendingSince: number) =>
      (await known.get({ userId, fingerprint, pendingSince })) !== undefined,
    /** Answers the new row's id. */
    insert: async (values: NewDevice): Promise<number> =>
      Number((await database.get(database.orm.insert(devices).values(values).returning({ id: devices.id })))?.id),
    pendingByToken: (tokenHash: string, pendingSince: number) => pendingByToken.get({ tokenHash, pendingSince }),
    /** False when another request decided first. */
    decide: async (id: number, status: 'confirmed' | 'reported', at: number) =>
      (await decide.run({ id, status, at })).changes === 1,
    /** False when the row is gone (its transaction rolled back, or the account deleted). */
    setPlace: async (row: InsertedDevice, place: { city: string | null; country: string }) =>
      (await setPlace.run({ ...row, ...place })).changes === 1,
    sessionsOfUser: (userId: number) => sessionsOfUser.all({ userId }),
  };
}

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
