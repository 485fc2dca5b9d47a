import { newId } from '../../../db/ids.ts';
import { NEGATIVE_ALLOWED_KINDS } from '../../../db/schema/index.ts';
import type { ServiceContext } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import { type AccountRef, isOwnedRef } from './accounts.ts';
import type { TransactionHeader } from './execute.ts';
import type { AccountRow, LedgerRepository } from './repository.ts';

// The writes inside a ledger transaction: the accounts it needs, then the transaction row, its
// postings, the balance updates and the audit row.

/** A driver's error with its code (better-sqlite3's SqliteError, node-postgres' DatabaseError). */
const databaseError = (error: unknown): { code: string; message: string } | undefined =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
    ? (error as Error & { code: string })
    : undefined;

export const escrowResolved = () =>
  new AppError('ESCROW_ALREADY_RESOLVED', 'This escrow was released or returned already.');

const mapConstraint = (error: unknown, account: AccountRow): unknown => {
  const failure = databaseError(error);
  // SQLite: SQLITE_CONSTRAINT_…; PostgreSQL: class 23, integrity constraint violation. Both name the constraint.
  if (!failure || !(failure.code.startsWith('SQLITE_CONSTRAINT') || failure.code.startsWith('23'))) return error;
  if (failure.message.includes('ledger_accounts_balance_check'))
    return new AppError('INSUFFICIENT_FUNDS', `The ${account.currency} balance is lower than the amount.`, {
      field: 'amount',
    });
  if (failure.message.includes('ledger_accounts_resolved_check')) return escrowResolved();
  if (failure.message.includes('ledger_accounts_integer_check'))
    return invalidInput([{ field: 'amount', message: 'The balance would leave the range of safe integers.' }]);
  return error;
};

/** The account's row; wallets, earnings and system accounts are created on first use, escrows by a lock. */
export async function ensureAccount(repo: LedgerRepository, ref: AccountRef, at: number): Promise<AccountRow> {
  if (isOwnedRef(ref)) {
    const found = await repo.ownedAccount(ref.kind, ref.userId, ref.currency);
    if (found) return found;
    if (!(await repo.userExists(ref.userId))) throw notFound(`User ${ref.userId}`, 'account');
    return repo.insertAccount({
      kind: ref.kind,
      ownerId: ref.userId,
      currency: ref.currency,
      reference: null,
      allowNegative: 0,
      at,
    });
  }
  if (ref.kind === 'trade_escrow') {
    const found = await repo.escrowAccount(ref.reference, ref.currency);
    if (!found) throw notFound(`The ${ref.currency} escrow of ${ref.reference}`, 'account');
    return found;
  }
  return (
    (await repo.systemAccount(ref.kind, ref.currency)) ??
    repo.insertAccount({
      kind: ref.kind,
      ownerId: null,
      currency: ref.currency,
      reference: null,
      allowNegative: (NEGATIVE_ALLOWED_KINDS as readonly string[]).includes(ref.kind) ? 1 : 0,
      at,
    })
  );
}

/**
 * Writes one transaction: its row, each posting with its balance update, the audit row. A
 * constraint the database raises on a balance becomes the typed error; the enclosing transaction
 * then rolls back everything, so a refused operation leaves no trace.
 */
export async function write(
  repo: LedgerRepository,
  ctx: ServiceContext,
  operation: string,
  tx: TransactionHeader,
  legs: { account: AccountRow; amount: number }[],
  at: number,
): Promise<number> {
  const id = await repo.insertTransaction({
    publicId: newId('ltx'),
    kind: tx.kind,
    key: tx.key,
    fingerprint: tx.fingerprint,
    memo: tx.memo ?? null,
    metadata: tx.metadata === undefined ? null : JSON.stringify(tx.metadata),
    at,
  });
  for (const { account, amount } of legs) {
    await repo.insertPosting(id, account.id, account.currency, amount);
    try {
      await repo.addToBalance(account.id, amount);
    } catch (error) {
      throw mapConstraint(error, account);
    }
  }
  const { actor } = ctx;
  // Routes that move money require a session; reaching here as a visitor is a wiring bug.
  if (actor.type === 'visitor') throw new Error('ledger: a visitor cannot move money');
  await repo.insertAudit({
    transactionId: id,
    operation,
    actorType: actor.type,
    actorUserId: actor.type === 'user' ? actor.userId : null,
    actorName: actor.type === 'user' ? null : actor.name,
    requestId: ctx.requestId ?? null,
    at,
  });
  return id;
}
