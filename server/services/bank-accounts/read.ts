import type { BankAccountView } from '../../../src/lib/shared/views/bank-accounts.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { BankAccountsDeps } from './deps.ts';
import { accountView } from './views.ts';

// Reading and deleting one's own accounts. Another person's id answers as an unknown one (404).

export async function myAccounts({ repo }: BankAccountsDeps, ctx: PersonContext): Promise<BankAccountView[]> {
  return (await repo.ofOwner(ctx.auth.user.id)).map(accountView);
}

export async function oneAccount(
  { repo }: BankAccountsDeps,
  ctx: PersonContext,
  { id }: { id: string },
): Promise<BankAccountView> {
  const row = await repo.owned(id, ctx.auth.user.id);
  if (!row) throw notFound('Bank account', 'id');
  return accountView(row);
}

/**
 * DELETE /rest/v1/bankaccounts/{id}. Refused while a running trade shows it: the trade keeps its
 * own copy, but the seller would pull the account the buyer is paying into from under them.
 */
export async function removeAccount({ repo }: BankAccountsDeps, ctx: PersonContext, { id }: { id: string }) {
  const ownerId = ctx.auth.user.id;
  await immediate(repo.db, async () => {
    const row = await repo.owned(id, ownerId);
    if (!row) throw notFound('Bank account', 'id');
    const trade = await repo.openTradeShowing(row.id);
    if (trade) {
      throw new AppError('BANK_ACCOUNT_IN_TRADE', 'This account is shown in a trade that is still open.', {
        field: 'id',
        key: 'bank_account_in_trade',
        meta: { tradeHash: trade },
      });
    }
    await repo.remove(row.id, ownerId);
  });
  return { success: true };
}
