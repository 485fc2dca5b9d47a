import { newId } from '../../../db/ids.ts';
import { NEGATIVE_ALLOWED_KINDS } from '../../../db/schema/index.ts';
import type { ServiceContext } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { AccountRef } from './accounts.ts';
import type { TransactionHeader } from './execute.ts';
import type { AccountRow, LedgerStatements } from './repository.ts';

// The writes inside a ledger transaction: the accounts it needs, then the transaction row, its
// postings, the balance updates and the audit row.

/** better-sqlite3's SqliteError, without importing the native module's class. */
const sqliteError = (error: unknown): { code: string; message: string } | undefined =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
    ? (error as Error & { code: string })
    : undefined;

export const escrowResolved = () =>
  new AppError('ESCROW_ALREADY_RESOLVED', 'This escrow was released or returned already.');

const mapConstraint = (error: unknown, account: AccountRow): unknown => {
  const failure = sqliteError(error);
  if (!failure?.code.startsWith('SQLITE_CONSTRAINT')) return error;
  if (failure.message.includes('ledger_accounts_balance_check'))
    return new AppError('INSUFFICIENT_FUNDS', `The ${account.currency} balance is lower than the amount.`, {
      field: 'amount',
    });
  if (failure.message.includes('ledger_accounts_resolved_check')) return escrowResolved();
  if (failure.message.includes('ledger_accounts_integer_check'))
    return invalidInput([{ field: 'amount', message: 'The balance would leave the range of safe integers.' }]);
  return error;
};

/** The account's row; wallets and system accounts are created on first use, escrows by a lock. */
export function ensureAccount(repo: LedgerStatements, ref: AccountRef, at: number): AccountRow {
  if (ref.kind === 'user_wallet') {
    const found = repo.walletAccount(ref.userId, ref.currency);
    if (found) return found;
    if (!repo.userExists(ref.userId)) throw notFound(`User ${ref.userId}`, 'account');
    return repo.insertAccount({
      kind: 'user_wallet',
      ownerId: ref.userId,
      currency: ref.currency,
      reference: null,
      allowNegative: 0,
      at,
    });
  }
  if (ref.kind === 'trade_escrow') {
    const found = repo.escrowAccount(ref.reference, ref.currency);
    if (!found) throw notFound(`The ${ref.currency} escrow of ${ref.reference}`, 'account');
    return found;
  }
  return (
    repo.systemAccount(ref.kind, ref.currency) ??
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
 * constraint SQLite raises on a balance becomes the typed error; the enclosing transaction
 * then rolls back everything, so a refused operation leaves no trace.
 */
export function write(
  repo: LedgerStatements,
  ctx: ServiceContext,
  operation: string,
  tx: TransactionHeader,
  legs: { account: AccountRow; amount: number }[],
  at: number,
): number {
  const id = repo.insertTransaction({
    publicId: newId('ltx'),
    kind: tx.kind,
    key: tx.key,
    fingerprint: tx.fingerprint,
    memo: tx.memo ?? null,
    metadata: tx.metadata === undefined ? null : JSON.stringify(tx.metadata),
    at,
  });
  for (const { account, amount } of legs) {
    repo.insertPosting(id, account.id, account.currency, amount);
    try {
      repo.addToBalance(account.id, amount);
    } catch (error) {
      throw mapConstraint(error, account);
    }
  }
  const { actor } = ctx;
  // Routes that move money require a session; reaching here as a visitor is a wiring bug.
  if (actor.type === 'visitor') throw new Error('ledger: a visitor cannot move money');
  repo.insertAudit({
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
