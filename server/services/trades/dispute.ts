import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { TradesParts } from './deps.ts';
import { isDisputeReason } from './dispute-reasons.ts';
import { disputeAvailableAt, type TradeView } from './trade-view.ts';

/** Either party opens a dispute on a paid trade, once the wait after marking paid is over. */
export function openDispute(
  { act, now, disputeWaitMs }: TradesParts,
  ctx: PersonContext,
  { hash, reasonId, text }: { hash: string; reasonId: string; text: string },
): Promise<TradeView> {
  const details = { disputeReasonId: reasonId, disputeText: text };
  // Inside the transaction: a trade marked paid meanwhile waits its full time like any other.
  return act(ctx, hash, 'open_dispute', {
    details,
    check: (row, role) => {
      if (!isDisputeReason(reasonId, role)) {
        throw invalidInput([
          { field: 'dispute_reason_id', message: 'Choose one of the listed reasons.', key: 'trade_dispute_reason' },
        ]);
      }
      const availableAt = disputeAvailableAt(row, disputeWaitMs);
      if (row.status === 'paid' && availableAt !== null && now() < availableAt) {
        throw new AppError('FORBIDDEN', 'A dispute can be opened a little later; the time is shown on the page.', {
          key: 'trade_dispute_not_yet',
          meta: { availableAt: Math.floor(availableAt / 1000) },
        });
      }
    },
  });
}
