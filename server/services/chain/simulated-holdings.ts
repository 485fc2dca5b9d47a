import type { Database } from '../../../db/database.ts';
import type { DepositNetwork } from '../../../db/schema/index.ts';
import type { AddressHolding } from './adapter.ts';
import { NETWORKS } from './networks.ts';

// What the simulated chain's addresses hold (the proof of reserves, decision 149). The embedded
// chain has no outputs of its own, so it keeps the simplest honest model: an address holds what
// was paid to it in a mined block, and the sendouts (amount and network fee, once broadcast) are
// spent from the deposit addresses in the order they were handed out, so the sum of the
// addresses is what came in minus what went out, as on a real chain.

const RECEIVED = `SELECT d.address AS address, coalesce(sum(t.amount), 0) AS received
  FROM deposit_addresses d
  LEFT JOIN chain_transactions t
    ON t.address = d.address AND t.direction = 'in' AND t.network = d.network
       AND t.status <> 'failed' AND t.block_height IS NOT NULL
  WHERE d.network = ?
  GROUP BY d.id, d.address
  ORDER BY d.id`;

const SPENT = `SELECT coalesce(sum(amount + fee), 0) AS spent FROM chain_transactions
  WHERE direction = 'out' AND currency = ? AND status IN ('broadcast', 'confirmed')`;

export async function simulatedHoldings(database: Database, network: DepositNetwork): Promise<AddressHolding[]> {
  const { sql } = database;
  const received = await sql.all<{ address: string; received: number | string }>(RECEIVED, [network]);
  const spentRow = await sql.get<{ spent: number | string }>(SPENT, [NETWORKS[network].currency]);
  let spent = Number(spentRow?.spent ?? 0);
  const holdings: AddressHolding[] = [];
  for (const row of received) {
    const amount = Number(row.received);
    const paid = Math.min(amount, spent);
    spent -= paid;
    if (amount - paid > 0) holdings.push({ address: row.address, balance: amount - paid });
  }
  return holdings;
}
