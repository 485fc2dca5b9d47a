import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { DepositNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { DEPOSIT_NETWORK_OF } from '../chain/networks.ts';
import type { AddressBook, DepositAddressRow } from '../shared/deposit-addresses.ts';
import type { DepositAddresses } from './addresses.ts';

// Who owns which deposit address (issue 5): one current address per user and currency, derived
// at the next unused index of its network on first request. The index is taken inside one
// transaction and guarded by a unique index, so two requests (or two processes) can
// never hand out the same address. Its types live in shared/deposit-addresses.ts, below both the
// wallet and the chain job that looks deposits up here.

export type { AddressBook, DepositAddressRow };

const COLUMNS = `user_id AS userId, currency, network, address, derivation_index AS derivationIndex,
  created_at AS createdAt`;
const OF_USER = `SELECT ${COLUMNS} FROM deposit_addresses WHERE user_id = ? AND currency = ?`;
const BY_ADDRESS = `SELECT ${COLUMNS} FROM deposit_addresses WHERE address = ?`;
const NEXT_INDEX =
  'SELECT coalesce(max(derivation_index), -1) + 1 AS nextIndex FROM deposit_addresses WHERE network = ?';
const INSERT = `INSERT INTO deposit_addresses (user_id, currency, network, address, derivation_index, created_at)
  VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`;

export function createAddressBook({
  db,
  derive,
  now,
}: {
  db: DatabaseLike;
  derive: DepositAddresses;
  now: () => number;
}): AddressBook {
  const { sql } = asDatabase(db);
  const ofUser = (userId: number, currency: LedgerCurrency) => sql.get<DepositAddressRow>(OF_USER, [userId, currency]);

  // The derivation is arithmetic, no I/O: it stays inside the transaction.
  const create = (userId: number, currency: LedgerCurrency): Promise<DepositAddressRow> =>
    sql.transaction(async () => {
      const existing = await ofUser(userId, currency);
      if (existing) return existing;
      const network: DepositNetwork = DEPOSIT_NETWORK_OF[currency];
      const index = (await sql.get<{ nextIndex: number }>(NEXT_INDEX, [network]))?.nextIndex ?? 0;
      const { address } = network === 'bitcoin' ? derive.btc(index) : derive.tron(index);
      const row = await sql.get<DepositAddressRow>(INSERT, [userId, currency, network, address, index, now()]);
      return row as DepositAddressRow;
    });

  return {
    current: async (userId, currency) => (await ofUser(userId, currency)) ?? create(userId, currency),
    find: (address) => sql.get<DepositAddressRow>(BY_ADDRESS, [address]),
  };
}
