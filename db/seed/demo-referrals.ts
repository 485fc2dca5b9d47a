import type { Database } from '../database.ts';

// Who referred whom in the demo market (issue 20), set before the demo history plays, so the
// demo affiliate's earnings come from real releases through the product's own services: the
// affiliate (who also earns on sales) referred every third demo buyer and every sixth demo vendor
// (tier 1), and the first of those buyers brought a few more (the affiliate's tier 2).

const AFFILIATE_EMAIL = 'affiliate@example.com';

const every = <T>(items: readonly T[], step: number, offset = 0) => items.filter((_, i) => i % step === offset);

async function referAll(database: Database, referrerId: number, ids: number[]): Promise<void> {
  for (const id of ids)
    if (id !== referrerId)
      await database.sql.run('UPDATE users SET referred_by_id = ? WHERE id = ? AND referred_by_id IS NULL', [
        referrerId,
        id,
      ]);
}

export async function referDemoPeople(database: Database, buyers: number[], vendors: { id: number }[]) {
  const affiliate = await database.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [AFFILIATE_EMAIL]);
  if (!affiliate) return;
  const tier1 = [...every(buyers, 3), ...every(vendors, 6).map((vendor) => vendor.id)];
  await referAll(database, affiliate.id, tier1);
  const [first] = tier1;
  if (first !== undefined) await referAll(database, first, every(buyers, 7, 1));
}
