import type { EventBus } from '../../realtime/bus.ts';
import { personalChannel } from '../../realtime/channels.ts';
import { WALLET_EVENT } from '../chain/chain.ts';
import { LEDGER_CHANNEL, LEDGER_POSTED, type LedgerPostedEvent } from '../ledger/ledger.ts';
import { createBalances } from './balances.ts';
import { createDepositAddress } from './deposit-address.ts';
import type { WalletDeps } from './deps.ts';
import { createSend } from './send.ts';
import { createTransactions } from './transactions.ts';

// The wallet (issue 5, spec sections 3, 7 and 9): balances, history, deposit addresses and
// sendouts of the signed-in person, one verb per file, each `verb(ctx: PersonContext, input)`.
// Amounts leave it as decimal text (format.ts).

export type { SendInput } from './send.ts';

export function createWalletService({ bus, ...deps }: WalletDeps & { bus: EventBus }) {
  // Every committed posting that touched someone's wallet tells their wallet screen to reload.
  bus.subscribe(LEDGER_CHANNEL, (event) => {
    if (event.type !== LEDGER_POSTED) return;
    for (const publicId of (event.payload as LedgerPostedEvent).userPublicIds)
      bus.publish(personalChannel('wallet', publicId), { type: WALLET_EVENT, payload: null });
  });

  return {
    balances: createBalances(deps),
    transactions: createTransactions(deps),
    depositAddress: createDepositAddress(deps),
    send: createSend(deps),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
