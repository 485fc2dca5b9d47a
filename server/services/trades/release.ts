import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { TradesParts } from './deps.ts';
import { transitionFor } from './state-machine.ts';
import type { TradeView } from './trade-view.ts';
import { stateChanged } from './transition.ts';

/**
 * The seller releases the coins to the buyer; with release 2FA on, only with the code. A missing
 * or wrong code is 400 so the page shows the message. The code is checked before the transaction
 * (a wrong one counts against the limits even though the release is refused).
 */
export function releaseTrade(
  { twoFactor, act }: TradesParts,
  ctx: PersonContext,
  { hash, code }: { hash: string; code?: string | undefined },
): Promise<TradeView> {
  let codeChecked = false;
  return act(ctx, hash, 'release', {
    before: async (row, role) => {
      if (role !== 'seller' || transitionFor('release', row.status, role) === undefined) return;
      const check = await twoFactor.verify(ctx, { userId: ctx.auth.user.id, purpose: 'release', code });
      if (check === 'failed') {
        throw code?.trim()
          ? new AppError('RELEASE_CODE_INVALID', 'This code is not correct.', {
              field: 'code',
              key: 'two_factor_invalid',
            })
          : new AppError('RELEASE_CODE_REQUIRED', 'Enter the code from your authenticator app to release.', {
              field: 'code',
              key: 'trade_release_code_required',
            });
      }
      codeChecked = true;
    },
    // The code was not asked because the trade could not be released then: if it can be now
    // (reopened meanwhile), the seller reloads and releases with the code.
    check: (row, role) => {
      if (role === 'seller' && !codeChecked && transitionFor('release', row.status, role) !== undefined) {
        throw stateChanged(row.status);
      }
    },
  });
}
