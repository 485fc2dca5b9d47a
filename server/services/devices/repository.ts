import { and, eq, gt, or, sql } from 'drizzle-orm';
import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import { devices, sessions } from '../../../db/schema/index.ts';

// Every statement of device review, prepared once per database; the verbs see them gated
// (db/access.ts): each method answers a promise.

export type DeviceRow = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;
/** What identifies a row just inserted, before its transaction is known to have committed. */
export type InsertedDevice = Pick<DeviceRow, 'id' | 'userId' | 'fingerprint' | 'createdAt'>;

const p = sql.placeholder;

export function createDevicesRepository(db: Db) {
  const anyOfUser = db
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.userId, p('userId')))
    .limit(1)
    .prepare();
  // Known: confirmed, or pending with a link that still works (an expired one asks again).
  const known = db
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
    .limit(1)
    .prepare();
  const pendingByToken = db
    .select()
    .from(devices)
    .where(
      and(
        eq(devices.reviewTokenHash, p('tokenHash')),
        eq(devices.status, 'pending'),
        gt(devices.createdAt, p('pendingSince')),
      ),
    )
    .prepare();
  // Single use: only a still-pending row changes, so two clicks cannot both decide.
  const decide = db
    .update(devices)
    .set({ status: sql`${p('status')}`, reviewedAt: sql`${p('at')}` })
    .where(and(eq(devices.id, p('id')), eq(devices.status, 'pending')))
    .prepare();
  // City and country, written after the sign-in's commit (devices.ts). Matched on more than the
  // id: were that transaction rolled back, the id could come back for another row.
  const setPlace = db
    .update(devices)
    .set({ city: sql`${p('city')}`, country: sql`${p('country')}` })
    .where(
      and(
        eq(devices.id, p('id')),
        eq(devices.userId, p('userId')),
        eq(devices.fingerprint, p('fingerprint')),
        eq(devices.createdAt, p('createdAt')),
      ),
    )
    .prepare();
  const sessionsOfUser = db
    .select({ id: sessions.id, ip: sessions.ip, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, p('userId')))
    .prepare();

  return gated(db, {
    db,
    hasAny: (userId: number) => anyOfUser.get({ userId }) !== undefined,
    isKnown: (userId: number, fingerprint: string, pendingSince: number) =>
      known.get({ userId, fingerprint, pendingSince }) !== undefined,
    insert: (values: NewDevice) => db.insert(devices).values(values).run(),
    pendingByToken: (tokenHash: string, pendingSince: number) => pendingByToken.get({ tokenHash, pendingSince }),
    /** False when another request decided first. */
    decide: (id: number, status: 'confirmed' | 'reported', at: number) => decide.run({ id, status, at }).changes === 1,
    /** False when the row is gone (its transaction rolled back, or the account deleted). */
    setPlace: (row: InsertedDevice, place: { city: string | null; country: string }) =>
      setPlace.run({ ...row, ...place }).changes === 1,
    sessionsOfUser: (userId: number) => sessionsOfUser.all({ userId }),
  });
}

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
