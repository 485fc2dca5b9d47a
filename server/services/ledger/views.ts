import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { AppError } from '../errors.ts';
import { refOfRow } from './accounts.ts';
import type { Outcome } from './execute.ts';
import type { LedgerRepository, TransactionRow } from './repository.ts';
import type { LedgerTransaction } from './types.ts';

// A ledger transaction as callers see it: read back from its rows, for a commit, a replay or a read.

export const viewOf = async (
  repo: LedgerRepository,
  row: TransactionRow,
  replayed: boolean,
): Promise<LedgerTransaction> => ({
  id: row.publicId,
  kind: row.kind,
  memo: row.memo,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
  createdAt: row.createdAt,
  postings: (await repo.postingsOf(row.id)).map((p) => ({ account: refOfRow(p), amount: p.amount })),
  replayed,
});

/**
 * The first result of this key, or undefined when it is new. The same key with other parameters
 * is refused, so a client bug cannot pass for a retry.
 */
export async function replay(repo: LedgerRepository, key: string, fingerprint: string): Promise<Outcome | undefined> {
  const existing = await repo.transactionByKey(key);
  if (!existing) return undefined;
  if (existing.fingerprint !== fingerprint)
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      'This idempotency key was used for a different request; use a new key for a new request.',
      { field: 'idempotencyKey' },
    );
  return { view: await viewOf(repo, existing, true) };
}

/** The committed transaction and its event: the users whose wallets or earnings it changed. */
export async function committed(repo: LedgerRepository, id: number): Promise<Outcome> {
  const view = await viewOf(repo, (await repo.transactionById(id)) as TransactionRow, false);
  const owners = [...new Set(view.postings.flatMap((p) => ('userId' in p.account ? [p.account.userId] : [])))];
  const users = await repo.publicIdsOf(owners);
  const wallets = new Map<string, { userId: number; currency: LedgerCurrency; amount: number }>();
  for (const { account, amount } of view.postings) {
    if (account.kind !== 'user_wallet') continue;
    const key = `${account.userId}:${account.currency}`;
    const change = wallets.get(key) ?? { userId: account.userId, currency: account.currency, amount: 0 };
    change.amount += amount;
    wallets.set(key, change);
  }
  return {
    view,
    event: {
      transactionId: view.id,
      kind: view.kind,
      userIds: users.map((u) => u.id),
      userPublicIds: users.map((u) => u.publicId),
      wallets: [...wallets.values()],
    },
  };
}
