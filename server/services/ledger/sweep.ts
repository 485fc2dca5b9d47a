import type { DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type OwnedAccountKind, walletOf } from './accounts.ts';
import type { LedgerService, LedgerTransaction } from './ledger.ts';
import type { DirectKind } from './types.ts';

// Moving one of a person's own balances (affiliate earnings, a merchant balance) into their
// wallet, whole, in one transaction of `kind`, once per client key: a double click or a retry
// after a lost answer (even requests racing) moves it once and answers the same transaction.

export interface Sweep {
  userId: number;
  from: OwnedAccountKind;
  kind: DirectKind;
  /** The person's own key space: another person's key never answers for them. */
  idempotencyKey: string;
  memo: string;
  /** Which currencies move, given both balances; none answers `nothing()`. */
  moving: (balances: Record<LedgerCurrency, number>) => LedgerCurrency[];
  nothing: () => AppError;
  /** The account a currency's balance leaves. */
  account: (userId: number, currency: LedgerCurrency) => ReturnType<typeof walletOf>;
}

export function sweepToWallet(
  { db, ledger }: { db: DatabaseLike; ledger: LedgerService },
  ctx: PersonContext,
  sweep: Sweep,
): Promise<LedgerTransaction> {
  const { userId, kind, idempotencyKey, memo } = sweep;
  return immediate(db, async (tx) => {
    // Before reading the balance: a retry finds its first answer, not an empty balance.
    const first = await ledger.transactionByKey(ctx, { idempotencyKey });
    if (first) {
      if (first.kind !== kind)
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This key was used for another request; send a new one.', {
          field: 'idempotency_key',
        });
      return first;
    }
    const balances = await ledger.balances(ctx, { userId, kind: sweep.from });
    const moving = sweep.moving(balances);
    if (moving.length === 0) throw sweep.nothing();
    return ledger.post(
      { ...ctx, tx },
      {
        kind,
        idempotencyKey,
        memo,
        legs: moving.flatMap((currency) => [
          { account: sweep.account(userId, currency), amount: -balances[currency] },
          { account: walletOf(userId, currency), amount: balances[currency] },
        ]),
      },
    );
  });
}

/** What a sweep moved into the wallets, from its postings. */
export function sweptIntoWallet(transaction: LedgerTransaction): Record<LedgerCurrency, number> {
  const moved = { BTC: 0, USDT: 0 };
  for (const { account, amount } of transaction.postings)
    if (account.kind === 'user_wallet') moved[account.currency] += amount;
  return moved;
}
