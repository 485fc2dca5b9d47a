import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { BankAccountKind } from '../../../src/lib/shared/views/bank-accounts.ts';
import type { CheckedAccount } from './account-input.ts';

// Reads and writes of saved bank accounts and of the copies shared into trades, in SQL that
// SQLite and PostgreSQL both run. The service decides who may; every read of one account names
// its owner, so another person's id reads as nothing.

/** A saved account as stored: the checked payload's columns (account-input.ts) with its ids and names. */
export interface BankAccountRow extends Omit<CheckedAccount, 'isPersonal' | 'identity'> {
  id: number;
  publicId: string;
  ownerId: number;
  countryIso: string;
  countryName: string;
  fiatCode: string;
  isPersonal: number | boolean;
  createdAt: number;
  updatedAt: number;
}

export interface TradeBankAccountRow {
  tradeId: number;
  bankAccountId: number;
  kind: BankAccountKind;
  holderName: string;
  isPersonal: number | boolean;
  bankName: string | null;
  iban: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  swiftCode: string | null;
  countryIso: string;
  countryName: string;
  currencyCode: string;
  swiftAddress: string | null;
  sharedAt: number;
}

export type NewTradeBankAccount = Omit<TradeBankAccountRow, 'isPersonal'> & { isPersonal: number; sharedBy: number };

const COLUMNS = `a.id, a.public_id AS publicId, a.owner_id AS ownerId, a.kind, a.country_id AS countryId,
    c.iso AS countryIso, c.name AS countryName, a.fiat_currency_id AS fiatCurrencyId, fc.code AS fiatCode,
    a.holder_name AS holderName, a.is_personal AS isPersonal, a.iban, a.account_number AS accountNumber,
    a.routing_number AS routingNumber, a.bank_id AS bankId, a.swift_code AS swiftCode,
    a.swift_residency AS swiftResidency, a.swift_state AS swiftState, a.swift_city AS swiftCity,
    a.swift_zip AS swiftZip, a.swift_address AS swiftAddress, a.created_at AS createdAt, a.updated_at AS updatedAt
  FROM bank_accounts a
  JOIN countries c ON c.id = a.country_id
  JOIN fiat_currencies fc ON fc.id = a.fiat_currency_id`;
const OF_OWNER = `SELECT ${COLUMNS} WHERE a.owner_id = ? ORDER BY a.id DESC LIMIT 200`;
const OWNED = `SELECT ${COLUMNS} WHERE a.public_id = ? AND a.owner_id = ?`;
const COUNT_OF_OWNER = 'SELECT COUNT(*) AS n FROM bank_accounts WHERE owner_id = ?';
const IDENTITY_TAKEN = 'SELECT id FROM bank_accounts WHERE owner_id = ? AND identity = ?';
const FIELDS = `kind, country_id, fiat_currency_id, holder_name, is_personal, iban, account_number, routing_number,
    bank_id, swift_code, swift_residency, swift_state, swift_city, swift_zip, swift_address, identity`;
const VALUES = `@kind, @countryId, @fiatCurrencyId, @holderName, @isPersonal, @iban, @accountNumber, @routingNumber,
    @bankId, @swiftCode, @swiftResidency, @swiftState, @swiftCity, @swiftZip, @swiftAddress, @identity`;
const INSERT = `INSERT INTO bank_accounts (public_id, owner_id, ${FIELDS}, created_at, updated_at)
  VALUES (@publicId, @ownerId, ${VALUES}, @at, @at)`;
const ASSIGNMENTS = FIELDS.split(',')
  .map((column, i) => `${column.trim()} = ${VALUES.split(',')[i]?.trim()}`)
  .join(', ');
const UPDATE = `UPDATE bank_accounts SET ${ASSIGNMENTS}, updated_at = @at WHERE id = @id AND owner_id = @ownerId`;
const DELETE = 'DELETE FROM bank_accounts WHERE id = ? AND owner_id = ?';
// Trades still running (server/services/trades/state-machine.ts, ACTIVE_STATUSES) that show this account.
const OPEN_TRADE_SHOWING = `SELECT t.hash FROM trade_bank_accounts s JOIN trades t ON t.id = s.trade_id
  WHERE s.bank_account_id = ? AND t.status IN ('active_funded', 'paid', 'dispute_open') LIMIT 1`;

const SNAPSHOT_COLUMNS = `trade_id AS tradeId, bank_account_id AS bankAccountId, kind, holder_name AS holderName,
    is_personal AS isPersonal, bank_name AS bankName, iban, account_number AS accountNumber,
    routing_number AS routingNumber, swift_code AS swiftCode, country_iso AS countryIso, country_name AS countryName,
    currency_code AS currencyCode, swift_address AS swiftAddress, shared_at AS sharedAt`;
const SNAPSHOT_OF = `SELECT ${SNAPSHOT_COLUMNS} FROM trade_bank_accounts WHERE trade_id = ?`;
const CLEAR_SNAPSHOT = 'DELETE FROM trade_bank_accounts WHERE trade_id = ?';
const INSERT_SNAPSHOT = `INSERT INTO trade_bank_accounts (trade_id, bank_account_id, shared_by, kind, holder_name,
    is_personal, bank_name, iban, account_number, routing_number, swift_code, country_iso, country_name, currency_code,
    swift_address, shared_at)
  VALUES (@tradeId, @bankAccountId, @sharedBy, @kind, @holderName, @isPersonal, @bankName, @iban, @accountNumber,
    @routingNumber, @swiftCode, @countryIso, @countryName, @currencyCode, @swiftAddress, @sharedAt)`;

const stored = (account: CheckedAccount) => ({ ...account, isPersonal: account.isPersonal ? 1 : 0 });

export function createBankAccountsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    ofOwner: (ownerId: number) => sql.all<BankAccountRow>(OF_OWNER, [ownerId]),
    owned: (publicId: string, ownerId: number) => sql.get<BankAccountRow>(OWNED, [publicId, ownerId]),
    countOf: async (ownerId: number) => Number((await sql.get<{ n: number }>(COUNT_OF_OWNER, [ownerId]))?.n ?? 0),
    /** The row id of the owner's account with this identity, if any. */
    identityTaken: async (ownerId: number, identity: string) =>
      (await sql.get<{ id: number }>(IDENTITY_TAKEN, [ownerId, identity]))?.id,
    insert: (account: CheckedAccount & { publicId: string; ownerId: number; at: number }) =>
      sql.run(INSERT, [stored(account)]),
    update: async (id: number, ownerId: number, account: CheckedAccount, at: number) =>
      (await sql.run(UPDATE, [{ ...stored(account), id, ownerId, at }])).changes === 1,
    remove: async (id: number, ownerId: number) => (await sql.run(DELETE, [id, ownerId])).changes === 1,
    /** The hash of a running trade that shows this account, if any. */
    openTradeShowing: async (id: number) => (await sql.get<{ hash: string }>(OPEN_TRADE_SHOWING, [id]))?.hash,

    snapshotOf: (tradeId: number) => sql.get<TradeBankAccountRow>(SNAPSHOT_OF, [tradeId]),
    /** The trade's copy, replacing the one shared before. */
    share: async (snapshot: NewTradeBankAccount) => {
      await sql.run(CLEAR_SNAPSHOT, [snapshot.tradeId]);
      await sql.run(INSERT_SNAPSHOT, [snapshot]);
    },
  };
}

export type BankAccountsRepository = ReturnType<typeof createBankAccountsRepository>;
