import type { Db } from '../../../db/client.ts';
import type { DepositNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { DEPOSIT_NETWORK_OF } from '../chain/networks.ts';
import type { DepositAddresses } from './addresses.ts';

// Who owns which deposit address (issue 5): one current address per user and currency, derived
// at the next unused index of its network on first request. The index is taken inside an
// immediate transaction and guarded by a unique index, so two requests (or two processes) can
// never hand out the same address.

export interface DepositAddressRow {
  userId: number;
  currency: LedgerCurrency;
  network: DepositNetwork;
  address: string;
  derivationIndex: number;
  createdAt: number;
}

const COLUMNS = `user_id AS userId, currency, network, address, derivation_index AS derivationIndex,
  created_at AS createdAt`;

export function createAddressBook({ db, derive, now }: { db: Db; derive: DepositAddresses; now: () => number }) {
  const client = db.$client;
  const ofUser = client.prepare<[number, LedgerCurrency], DepositAddressRow>(
    `SELECT ${COLUMNS} FROM deposit_addresses WHERE user_id = ? AND currency = ?`,
  );
  const byAddress = client.prepare<[string], DepositAddressRow>(
    `SELECT ${COLUMNS} FROM deposit_addresses WHERE address = ?`,
  );
  const nextIndex = client
    .prepare<[DepositNetwork], number>(
      'SELECT coalesce(max(derivation_index), -1) + 1 FROM deposit_addresses WHERE network = ?',
    )
    .pluck();
  const insert = client.prepare<[number, LedgerCurrency, DepositNetwork, string, number, number], DepositAddressRow>(
    `INSERT INTO deposit_addresses (user_id, currency, network, address, derivation_index, created_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );

  const create = client.transaction((userId: number, currency: LedgerCurrency): DepositAddressRow => {
    const existing = ofUser.get(userId, currency);
    if (existing) return existing;
    const network = DEPOSIT_NETWORK_OF[currency];
    const index = nextIndex.get(network) ?? 0;
    const { address } = network === 'bitcoin' ? derive.btc(index) : derive.tron(index);
    return insert.get(userId, currency, network, address, index, now()) as DepositAddressRow;
  });

  return {
    /** The user's address for `currency`, created at the network's next index on first call. */
    current(userId: number, currency: LedgerCurrency): DepositAddressRow {
      return ofUser.get(userId, currency) ?? create.immediate(userId, currency);
    },
    /** The address's owner and currency, when it is one of ours. */
    find: (address: string): DepositAddressRow | undefined => byAddress.get(address),
  };
}

export type AddressBook = ReturnType<typeof createAddressBook>;
