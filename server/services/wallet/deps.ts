import type { ChainService } from '../chain/chain.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { AddressBook } from '../shared/deposit-addresses.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { BtcNetwork } from './addresses.ts';
import type { WalletRepository } from './repository.ts';

/** What the wallet's verbs are built from. */
export interface WalletDeps {
  ledger: LedgerService;
  chain: ChainService;
  addressBook: AddressBook;
  btcNetwork: BtcNetwork;
  twoFactor: TwoFactorService;
  repo: WalletRepository;
}
