import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradesParts } from './deps.ts';
import type { TradeView } from './trade-view.ts';

/** The buyer says the fiat went out; first the proofs the trade asks for before that. */
export function markPaid({ repo, act }: TradesParts, ctx: PersonContext, { hash }: { hash: string }): TradeView {
  return act(ctx, hash, 'mark_paid', {}, (row) => {
    const pending = repo.requirementsOf(row.id).some((r) => r.optional === 0 && r.status !== 'uploaded');
    if (pending && row.status === 'active_funded') {
      throw new AppError('FORBIDDEN', 'Upload the proofs this trade asks for before marking it paid.', {
        key: 'trade_requirements_pending',
      });
    }
  });
}
