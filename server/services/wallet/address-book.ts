import { access } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { DepositNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { DEPOSIT_NETWORK_OF } from '../chain/networks.ts';
import { immediate } from '../context.ts';
import type { AddressBook, DepositAddressRow } from '../shared/deposit-addresses.ts';
import type { DepositAddresses } from './addresses.ts';

// Who owns which deposit address (issue 5): one current address per user and currency, derived
// at the next unused index of its network on first request. The index is taken inside an
// immediate transaction and guarded by a unique index, so two requests (or two processes) can
// never hand out the same address. Its types live in shared/deposit-addresses.ts, below both the
// wallet and the chain job that looks deposits up here.

export type { AddressBook, DepositAddressRow };

const COLUMNS = `user_id AS userId, currency, network, address, derivation_index AS derivationIndex,
  created_at AS createdAt`;

export function createAddressBook({
  db,
  derive,
  now,
}: {
  db: Db;
  derive: DepositAddresses;
  now: () => number;
}): AddressBook {
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

  // The derivation is arithmetic, no I/O and nothing awaited: it stays inside the transaction.
  const create = (userId: number, currency: LedgerCurrency): Promise<DepositAddressRow> =>
    immediate(db, () => {
      const existing = ofUser.get(userId, currency);
      if (existing) return existing;
      const network = DEPOSIT_NETWORK_OF[currency];
      const index = nextIndex.get(network) ?? 0;
      const { address } = network === 'bitcoin' ? derive.btc(index) : derive.tron(index);
      return insert.get(userId, currency, network, address, index, now()) as DepositAddressRow;
    });

  return {
    current: async (userId, currency) =>
      (await access(db, () => ofUser.get(userId, currency))) ?? create(userId, currency),
    find: (address) => access(db, () => byAddress.get(address)),
  };
}
