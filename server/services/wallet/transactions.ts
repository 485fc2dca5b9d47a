import type { PersonContext } from '../context.ts';
import type { WalletDeps } from './deps.ts';
import { formatAmount } from './format.ts';

export const HISTORY_PAGE_SIZE = 50;

/** One page (1-based) of the signed-in person's wallet history, newest first. */
export function createTransactions({ repo }: WalletDeps) {
  return async function transactions(ctx: PersonContext, { page }: { page: number }) {
    const rows = await repo.history(ctx.auth.user.id, HISTORY_PAGE_SIZE + 1, (page - 1) * HISTORY_PAGE_SIZE);
    const more = rows.length > HISTORY_PAGE_SIZE;
    const items = rows.slice(0, HISTORY_PAGE_SIZE).map((row) => ({
      id: row.id,
      type: row.type,
      cryptoCurrencyCode: row.currency,
      amount: formatAmount(row.amount, row.currency),
      // A return settles a failed sendout: the entry itself is complete.
      status: row.type === 'sendout_return' ? 'completed' : (row.chainStatus ?? 'completed'),
      createdAt: Math.floor(row.createdAt / 1000),
      txid: row.type === 'sendout_return' ? null : row.txid,
      network: row.network,
      ...(row.chainStatus && row.type !== 'sendout_return'
        ? {
            address: row.address,
            confirmations: row.confirmations,
            requiredConfirmations: row.requiredConfirmations,
            ...(row.type === 'sendout' ? { fee: formatAmount(row.fee ?? 0, row.currency) } : {}),
          }
        : {}),
    }));
    return { items, meta: { page, perPage: HISTORY_PAGE_SIZE, nextPageExist: more } };
  };
}
