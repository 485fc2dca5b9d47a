import { asDatabase, type DatabaseLike } from '../../db/database.ts';
import type { LedgerCurrency } from '../../db/schema/index.ts';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../src/lib/shared/money.ts';
import { createInProcessBus } from '../realtime/bus.ts';
import { normalizeEmail } from '../services/accounts/accounts.ts';
import { createAccountsRepository } from '../services/accounts/repository.ts';
import { createChainService } from '../services/chain/chain.ts';
import { type ChainConfig, createChainAdapter } from '../services/chain/create.ts';
import { NETWORKS } from '../services/chain/networks.ts';
import { createChainRepository } from '../services/chain/repository.ts';
import type { SimulatedChain } from '../services/chain/simulated.ts';
import { systemContext } from '../services/context.ts';
import { createLedgerService } from '../services/ledger/ledger.ts';
import { createLedgerRepository } from '../services/ledger/repository.ts';
import { createAddressBook } from '../services/wallet/address-book.ts';
import { createDepositAddresses } from '../services/wallet/addresses.ts';
import { CommandError } from './user-commands.ts';

// Operator commands on the simulated chain (`npm run admin -- chain:…`), for demos and browser
// tests. They write the same tables, through the same services, as the server's chain job; a
// running server notices within seconds (its job reads chain transactions past its last `seq`).

/** Who the commands act as: the operator at the console. */
const OPERATOR = systemContext('admin', 'operator');

export type ChainCommandsConfig = ChainConfig & { WALLET_BTC_XPUB?: string; WALLET_TRON_XPUB?: string };

const CONFIRMED_DEPOSITS =
  "SELECT count(*) AS n FROM chain_transactions WHERE direction = 'in' AND status = 'confirmed'";

export function chainCommands(db: DatabaseLike, config: ChainCommandsConfig = {}, now: () => number = Date.now) {
  const database = asDatabase(db);
  const chainRepo = createChainRepository(db);
  const adapter = createChainAdapter(config, chainRepo, now);
  const chain = createChainService({
    repo: chainRepo,
    adapter,
    ledger: createLedgerService({ repo: createLedgerRepository(db), bus: createInProcessBus(), now }),
    addressBook: createAddressBook({
      db,
      derive: createDepositAddresses({
        ...(config.WALLET_BTC_XPUB ? { btcXpub: config.WALLET_BTC_XPUB } : {}),
        ...(config.WALLET_TRON_XPUB ? { tronXpub: config.WALLET_TRON_XPUB } : {}),
      }),
      now,
    }),
    bus: createInProcessBus(),
    now,
    log: {
      info: (message) => console.log(message),
      error: (message, error) => console.error(message, error ?? ''),
    },
  });
  const accounts = createAccountsRepository(db);
  const simulatedOnly = () => {
    if (adapter.kind !== 'simulated')
      throw new CommandError('The chain commands work with CHAIN=simulated only; this configuration uses a real node.');
  };
  const confirmedDeposits = async () => (await database.sql.get<{ n: number }>(CONFIRMED_DEPOSITS))?.n ?? 0;

  return {
    /** An incoming deposit to the user's deposit address (created if needed); prints its txid. */
    async deposit(email: string, amountText: string, currencyText: string): Promise<string> {
      simulatedOnly();
      const currency = currencyText.toUpperCase();
      if (currency !== 'BTC' && currency !== 'USDT')
        throw new CommandError(`The currency is BTC or USDT, not ${currencyText}.`);
      const decimals = CRYPTO_DECIMALS[currency as LedgerCurrency];
      const amount = toMinorUnits(amountText, decimals);
      if (amount === undefined || amount === 0)
        throw new CommandError(`The amount is a positive number with at most ${decimals} decimals, such as 0.5.`);
      const user = await accounts.userByEmail(normalizeEmail(email));
      if (!user) throw new CommandError(`No account with the e-mail address ${email}.`);
      const row = await chain.simulateDeposit(OPERATOR, {
        userId: user.id,
        currency: currency as LedgerCurrency,
        amount,
      });
      const blocks = NETWORKS[row.network].requiredConfirmations;
      const ticks = Math.ceil(blocks / NETWORKS[row.network].simulatedBlocksPerTick);
      return [
        `Incoming ${amountText} ${currency} to ${row.address} (${user.email}), ${row.network}.`,
        `txid ${row.txid}`,
        `Credited after ${blocks} confirmations: npm run admin -- chain:mine ${ticks}`,
      ].join('\n');
    },

    /** Mines `blocks` bitcoin blocks (and ten TRON blocks each), then credits what is due. */
    async mine(blocksText = '1'): Promise<string> {
      simulatedOnly();
      const blocks = /^\d{1,5}$/.test(blocksText) ? Number(blocksText) : 0;
      if (blocks < 1) throw new CommandError('Mine 1 to 99999 blocks: npm run admin -- chain:mine [blocks]');
      const before = await confirmedDeposits();
      await chain.mine(OPERATOR, { ticks: blocks });
      const credited = (await confirmedDeposits()) - before;
      const sim = adapter as SimulatedChain;
      const [bitcoin, tron] = [await sim.height('bitcoin'), await sim.height('TRC20')];
      return `Mined ${blocks} tick(s): bitcoin at height ${bitcoin}, TRON at ${tron}; ${credited} deposit(s) credited.`;
    },
  };
}
