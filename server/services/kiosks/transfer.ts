import type { LedgerCurrency } from '../../../db/schema/index.ts';
import type { BalancePair } from '../../../src/lib/shared/views/kiosks.ts';
import type { PersonContext } from '../context.ts';
import { kioskBalanceOf, walletOf } from '../ledger/ledger.ts';
import { type KiosksDeps, kioskOf } from './deps.ts';
import { kioskBalance } from './views.ts';

// The kiosk's float: crypto moved from its wallet into its kiosk balance to sell, and back.

/** Moves `amount` between the kiosk's wallet and its kiosk balance, once per key. */
export async function transfer(
  deps: KiosksDeps,
  ctx: PersonContext,
  input: { direction: 'in' | 'out'; currency: LedgerCurrency; amount: number; idempotencyKey: string },
): Promise<{ balance: BalancePair; transactionId: string; replayed: boolean }> {
  const kioskId = kioskOf(ctx);
  const { direction, currency, amount } = input;
  const wallet = walletOf(kioskId, currency);
  const kiosk = kioskBalanceOf(kioskId, currency);
  const [from, to] = direction === 'in' ? [wallet, kiosk] : [kiosk, wallet];
  const posted = await deps.ledger.post(ctx, {
    kind: 'kiosk_transfer',
    idempotencyKey: `kiosk-transfer:${kioskId}:${input.idempotencyKey}`,
    memo: direction === 'in' ? 'wallet to kiosk balance' : 'kiosk balance to wallet',
    legs: [
      { account: from, amount: -amount },
      { account: to, amount },
    ],
  });
  return { balance: await kioskBalance(deps, ctx, kioskId), transactionId: posted.id, replayed: posted.replayed };
}
