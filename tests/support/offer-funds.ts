import type { Database } from '../../db/database.ts';
import { DEMO_VENDOR_DOMAIN } from '../../db/seed/demo.ts';
import { systemContext } from '../../server/services/context.ts';
import { type LedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';

// Coins for the people whose sell offers a test lists: a sell offer whose owner cannot cover its
// smallest trade is not listed (docs/decisions/121-unfunded-sell-offers.md), and the test
// template leaves every wallet empty (tests/support/global-setup.ts).

/** Plenty for any offer of the demo market: 1 BTC and 100,000 USDT. */
export const OFFER_FUNDS = { BTC: 100_000_000, USDT: 100_000_000_000 } as const;

/** A confirmed deposit of `amount` minor units onto `userId`'s wallet, through the ledger service. */
export async function deposit(
  ledger: Pick<LedgerService, 'post'>,
  userId: number,
  currency: 'BTC' | 'USDT',
  amount: number,
  key = `test-funds:${userId}:${currency}:${amount}:${Math.random()}`,
): Promise<void> {
  await ledger.post(systemContext('test'), {
    kind: 'deposit',
    idempotencyKey: key,
    legs: [
      { account: systemAccount('chain_in', currency), amount: -amount },
      { account: walletOf(userId, currency), amount },
    ],
  });
}

/** OFFER_FUNDS on each wallet of these people, once per person (a second call adds nothing). */
export async function fundUsers(ledger: Pick<LedgerService, 'post'>, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    // One key per person and coin: a second call replays the first deposit.
    for (const currency of ['BTC', 'USDT'] as const)
      await deposit(ledger, id, currency, OFFER_FUNDS[currency], `test-funds:${id}:${currency}`);
  }
}

/** OFFER_FUNDS on each wallet of the people `where` selects (a condition on `users`). */
export async function fundPeople(
  { db, ledger }: { db: Database; ledger: Pick<LedgerService, 'post'> },
  where: string,
  params: unknown[] = [],
): Promise<number[]> {
  const ids = (await db.sql.all<{ id: number }>(`SELECT id FROM users WHERE ${where} ORDER BY id`, params)).map(
    (row) => row.id,
  );
  await fundUsers(ledger, ids);
  return ids;
}

/** The demo market's vendors, and the demo account `vendor`. */
export const DEMO_VENDORS = `email LIKE '%${DEMO_VENDOR_DOMAIN}' OR email = 'vendor@example.com'`;

/** The demo market's vendors funded, so their sell offers are listed as on a fresh install. */
export const fundDemoVendors = (parts: { db: Database; ledger: Pick<LedgerService, 'post'> }) =>
  fundPeople(parts, DEMO_VENDORS);

/**
 * The same on a browser test's running server (tests/e2e/harness.ts): the people `where` selects
 * (default: the demo vendors) funded through its own ledger service, so its caches hear of it.
 */
export async function fundOnServer(
  server: {
    row<T>(statement: string, ...params: unknown[]): T | undefined;
    backend: { services: { ledger: Pick<LedgerService, 'post'> } };
  },
  where = DEMO_VENDORS,
): Promise<void> {
  const found = server.row<{ ids: string | null }>(`SELECT group_concat(id) AS ids FROM users WHERE ${where}`);
  const ids = (found?.ids ?? '').split(',').filter(Boolean).map(Number);
  await fundUsers(server.backend.services.ledger, ids);
}
