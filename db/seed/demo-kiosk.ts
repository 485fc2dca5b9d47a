import { createInProcessBus } from '../../server/realtime/bus.ts';
import { immediate, systemContext } from '../../server/services/context.ts';
import { createLedgerService, kioskBalanceOf, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { asDatabase, type DatabaseLike } from '../database.ts';
import { postDemoFunding } from './demo.ts';

// The demo kiosk (kiosk@example.com, docs/kiosks-and-merchants.md) opens with a float: funded
// like the demo vendors, then most of it moved into its kiosk balance through the ledger, so a
// newcomer who signs in as the kiosk can make an over-the-counter sale at once.

const DEMO_KIOSK_EMAIL = 'kiosk@example.com';
const FUNDS = { BTC: 50_000_000, USDT: 5_000_000_000 } as const;
const FLOAT = { BTC: 30_000_000, USDT: 3_000_000_000 } as const;

/** Funds the demo kiosk and fills its kiosk balance; false when the demo has no kiosk. */
export async function readyDemoKiosk(db: DatabaseLike, now = Date.now()): Promise<boolean> {
  const database = asDatabase(db);
  const ledger = createLedgerService({
    repo: createLedgerRepository(database),
    bus: createInProcessBus(),
    now: () => now,
  });
  const row = await database.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [DEMO_KIOSK_EMAIL]);
  if (!row) return false;
  const kioskId = row.id;
  await immediate(database, async () => {
    await postDemoFunding(ledger, kioskId, FUNDS);
    for (const currency of ['BTC', 'USDT'] as const) {
      await ledger.post(
        { ...systemContext('demo-seed'), tx: { afterCommit: () => {} } },
        {
          kind: 'kiosk_transfer',
          idempotencyKey: `demo-kiosk-float:${kioskId}:${currency}`,
          memo: 'wallet to kiosk balance',
          legs: [
            { account: walletOf(kioskId, currency), amount: -FLOAT[currency] },
            { account: kioskBalanceOf(kioskId, currency), amount: FLOAT[currency] },
          ],
        },
      );
    }
  });
  return true;
}
