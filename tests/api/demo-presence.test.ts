import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_DOMAIN, refreshDemoPresence } from '../../db/seed/demo.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

// The demo market plays its vendors' presence so its listings stay alive however long ago the
// database was seeded (db/seed/demo.ts); nobody else's last-seen time moves.

let t: TestDb;
afterEach(() => t?.close());

const NOW = Date.UTC(2027, 2, 1, 9, 30);
const seen = (where: string) =>
  t.db.sql.all<{ email: string; at: number }>(`SELECT email, last_seen_at AS at FROM users WHERE ${where} ORDER BY id`);

describe('demo presence', () => {
  it('puts about a third of the demo vendors online and the rest within 36 hours', async () => {
    t = await createTestDb();
    const others = await seen(`email NOT LIKE '%${DEMO_VENDOR_DOMAIN}'`);
    const moved = await refreshDemoPresence(t.db, NOW);
    const vendors = await seen(`email LIKE '%${DEMO_VENDOR_DOMAIN}'`);
    expect(moved).toBe(vendors.length);
    expect(vendors.length).toBeGreaterThan(30);
    for (const { at } of vendors) {
      expect(at).toBeLessThanOrEqual(NOW);
      expect(at).toBeGreaterThanOrEqual(NOW - 36 * 3_600_000);
    }
    const online = vendors.filter(({ at }) => NOW - at < 10 * 60_000).length;
    expect(online / vendors.length).toBeGreaterThan(0.15);
    expect(online / vendors.length).toBeLessThan(0.6);
    expect(await seen(`email NOT LIKE '%${DEMO_VENDOR_DOMAIN}'`)).toEqual(others);
  });

  it('gives the same presence within an hour and a new one the next', async () => {
    t = await createTestDb();
    await refreshDemoPresence(t.db, NOW);
    const first = (await seen(`email LIKE '%${DEMO_VENDOR_DOMAIN}'`)).map(({ at }) => NOW - at);
    await refreshDemoPresence(t.db, NOW);
    expect((await seen(`email LIKE '%${DEMO_VENDOR_DOMAIN}'`)).map(({ at }) => NOW - at)).toEqual(first);
    await refreshDemoPresence(t.db, NOW + 3_600_000);
    expect((await seen(`email LIKE '%${DEMO_VENDOR_DOMAIN}'`)).map(({ at }) => NOW + 3_600_000 - at)).not.toEqual(
      first,
    );
  });
});
