import type { TradeBankAccountView } from '../../../src/lib/shared/views/bank-accounts.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { BankAccountsDeps } from './deps.ts';
import { snapshotOf, tradeAccountView } from './views.ts';

// POST /rest/v1/trade/{id}/bank-account: the seller of a running bank-transfer trade shows one of
// their saved accounts in the trade's payment details. The trade keeps a copy (trade_bank_accounts),
// so changing the saved account later leaves what the buyer was told to pay into as it was;
// sharing again replaces the copy.

/** The payment group of bank transfers (db/seed/data/payment-groups.ts). */
export const BANK_TRANSFERS_GROUP = 'bank-transfers';
const RUNNING = new Set(['active_funded', 'paid', 'dispute_open']);

export async function shareIntoTrade(
  { repo, trades, bus, now }: BankAccountsDeps,
  ctx: PersonContext,
  { hash, bankAccountId }: { hash: string; bankAccountId: string },
): Promise<TradeBankAccountView> {
  const userId = ctx.auth.user.id;
  return immediate(repo.db, async (tx) => {
    const trade = await trades.byHash(hash);
    // A trade the person is not in is as unknown as one that never was.
    if (!trade || (trade.sellerId !== userId && trade.buyerId !== userId)) throw notFound('Trade', 'id');
    if (trade.sellerId !== userId) {
      throw new AppError('FORBIDDEN', 'Only the seller shares the account to pay into.', {
        key: 'bank_account_share_seller_only',
      });
    }
    if (trade.paymentGroupSlug !== BANK_TRANSFERS_GROUP) {
      throw new AppError('FORBIDDEN', 'This trade is not paid by bank transfer.', {
        key: 'bank_account_not_for_trade',
      });
    }
    if (!RUNNING.has(trade.status)) {
      throw new AppError('TRADE_STATE_CHANGED', 'This trade has ended.', { key: 'trade_state_changed' });
    }
    const account = await repo.owned(bankAccountId, userId);
    if (!account) throw notFound('Bank account', 'bank_account_id');
    await repo.share(snapshotOf(account, trade.id, userId, now()));
    // Both pages reload the trade, as after a requirement's proof.
    tx.afterCommit(() => bus.publish(tradeChannel(hash), { type: 'bank_account', payload: {} }));
    return tradeAccountView(
      (await repo.snapshotOf(trade.id)) as NonNullable<Awaited<ReturnType<typeof repo.snapshotOf>>>,
    );
  });
}

export async function tradeAccount(
  { repo }: Pick<BankAccountsDeps, 'repo'>,
  tradeId: number,
): Promise<TradeBankAccountView | null> {
  const row = await repo.snapshotOf(tradeId);
  return row ? tradeAccountView(row) : null;
}
