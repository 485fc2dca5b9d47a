import type { DepositNetwork, LedgerCurrency } from '../../../db/schema/index.ts';

// Deposit addresses as both the chain job and the wallet see them: the wallet's address book
// (wallet/address-book.ts) hands them out, the chain service looks deposits up in it. Here, below
// both folders, so chain no longer imports wallet to name the type (issue 26).

export interface DepositAddressRow {
  userId: number;
  currency: LedgerCurrency;
  network: DepositNetwork;
  address: string;
  derivationIndex: number;
  createdAt: number;
}

/** Who owns which deposit address. */
export interface AddressBook {
  /** The user's address for `currency`, created at the network's next index on first call. */
  current(userId: number, currency: LedgerCurrency): Promise<DepositAddressRow>;
  /** The address's owner and currency, when it is one of ours. */
  find(address: string): Promise<DepositAddressRow | undefined>;
}
