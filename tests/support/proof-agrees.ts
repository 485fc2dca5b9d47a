import { expect } from 'vitest';
import type { Database } from '../../db/database.ts';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { type PersonContext, systemContext } from '../../server/services/context.ts';
import { createProofService } from '../../server/services/proof/proof.ts';
import { verifyLiabilityProof } from '../../src/lib/shared/liabilities-proof.ts';

// After a suite's random or racing operations (issue 24, "Done means"): a publication of the
// proof of liabilities totals what `ledger:verify` says is owed to people, and every person's
// proofs verify against it, each for the sum of that person's accounts and escrows.

const OWED = /Owed to people: (\d+\.\d+) BTC, (\d+\.\d+) USDT\.$/;

/** Publishes, checks, and answers how many proofs were verified. */
export async function expectProofAgrees(db: Database, now: () => number = Date.now): Promise<number> {
  const printed = await ledgerCommands(db).verify();
  const [, btc, usdt] = OWED.exec(printed) ?? [];
  const proof = createProofService({ db, now, log: () => {} });
  const publication = await proof.publish(systemContext('test', 'operator'), { source: 'operator' });
  expect(publication.roots.map((root) => [root.currency, root.total])).toEqual([
    ['BTC', btc],
    ['USDT', usdt],
  ]);
  const owned = new Map<string, number>();
  for (const row of await db.sql.all<{ ownerId: number; currency: string; total: number }>(
    `SELECT owner_id AS ownerId, currency, sum(balance) AS total FROM ledger_accounts
     WHERE owner_id IS NOT NULL AND kind IN ('user_wallet', 'trade_escrow', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance')
     GROUP BY owner_id, currency`,
  ))
    owned.set(`${row.ownerId}:${row.currency}`, Number(row.total));
  const people = await db.sql.all<{ id: number; publicId: string }>(
    `SELECT DISTINCT u.id, u.public_id AS publicId FROM proof_leaves l
     JOIN proof_publications p ON p.id = l.publication_id JOIN users u ON u.id = l.user_id
     WHERE p.public_id = ?`,
    [publication.id],
  );
  expect(people.length).toBe(new Set([...owned.keys()].map((key) => key.split(':')[0])).size);
  let verified = 0;
  for (const person of people) {
    const ctx = {
      actor: { type: 'user', userId: person.id },
      auth: { user: { id: person.id, publicId: person.publicId } },
    } as unknown as PersonContext;
    const view = await proof.mine(ctx);
    expect(view.publication.id).toBe(publication.id);
    for (const one of view.proofs) {
      expect(await verifyLiabilityProof(one, person.publicId), `${person.publicId} ${one.currency}`).toMatchObject({
        ok: true,
        balance: owned.get(`${person.id}:${one.currency}`),
      });
      verified += 1;
    }
  }
  expect(verified).toBe(owned.size);
  return verified;
}
