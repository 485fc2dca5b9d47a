import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradesParts } from './deps.ts';
import type { TradeView } from './trade-view.ts';

/**
 * The buyer says the fiat went out; first the proofs the trade asks for before that, read inside
 * the transaction: a proof rejected meanwhile holds the trade back.
 */
export function markPaid(
  { repo, act }: TradesParts,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<TradeView> {
  return act(ctx, hash, 'mark_paid', {
    check: async (row) => {
      const pending = (await repo.requirementsOf(row.id)).some((r) => r.optional === 0 && r.status !== 'uploaded');
      if (pending && row.status === 'active_funded') {
        throw new AppError('FORBIDDEN', 'Upload the proofs this trade asks for before marking it paid.', {
          key: 'trade_requirements_pending',
        });
      }
    },
  });
}
