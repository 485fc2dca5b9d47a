import { sql } from 'drizzle-orm';
import { check, index, inList, integer, table, text, uniqueIndex } from './dialect.ts';
import { countries, fiatCurrencies } from './reference.ts';
import { trades } from './trades.ts';
import { users } from './users.ts';

// Saved bank accounts (issue 19; docs/bank-accounts.md) and the copy a seller shares into a
// bank-transfer trade. An account is named by IBAN, by account and ABA routing number (US) or by
// account and SWIFT/BIC (server/services/banks/checks.ts, `accountKindOf`); the bank is an id of
// the in-memory bank directory (server/services/banks/directory.ts), so it is text, not a key.

export const BANK_ACCOUNT_KINDS = ['iban', 'aba', 'swift'] as const;

export const bankAccounts = table(
  'bank_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `bac_…`: the only id that leaves the server. */
    publicId: text('public_id').notNull().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: BANK_ACCOUNT_KINDS }).notNull(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    fiatCurrencyId: integer('fiat_currency_id')
      .notNull()
      .references(() => fiatCurrencies.id),
    holderName: text('holder_name').notNull(),
    isPersonal: integer('is_personal', { mode: 'boolean' }).notNull(),
    /** Electronic form (no spaces, upper case); IBAN accounts only. */
    iban: text('iban'),
    /** US and SWIFT accounts, without spaces or dashes. */
    accountNumber: text('account_number'),
    routingNumber: text('routing_number'),
    bankId: text('bank_id'),
    swiftCode: text('swift_code'),
    swiftResidency: text('swift_residency'),
    swiftState: text('swift_state'),
    swiftCity: text('swift_city'),
    swiftZip: text('swift_zip'),
    swiftAddress: text('swift_address'),
    /** What makes two of a person's accounts the same account: the IBAN, routing+account, or BIC+account. */
    identity: text('identity').notNull(),
    /** Unix ms. */
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('bank_accounts_identity_idx').on(t.ownerId, t.identity),
    check('bank_accounts_kind_check', inList('kind', BANK_ACCOUNT_KINDS)),
    check(
      'bank_accounts_kind_fields_check',
      sql`(kind = 'iban' AND iban IS NOT NULL) OR (kind = 'aba' AND account_number IS NOT NULL AND routing_number IS NOT NULL) OR (kind = 'swift' AND account_number IS NOT NULL AND swift_code IS NOT NULL)`,
    ),
  ],
);

/**
 * The account a seller shared into a trade, copied: later edits or the deletion of the saved
 * account leave the trade's payment details as they were. One per trade; sharing again replaces it.
 */
export const tradeBankAccounts = table(
  'trade_bank_accounts',
  {
    tradeId: integer('trade_id')
      .primaryKey()
      .references(() => trades.id),
    /** The saved account it was copied from (no key: the saved account may be deleted once the trade ended). */
    bankAccountId: integer('bank_account_id').notNull(),
    sharedBy: integer('shared_by')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: BANK_ACCOUNT_KINDS }).notNull(),
    holderName: text('holder_name').notNull(),
    isPersonal: integer('is_personal', { mode: 'boolean' }).notNull(),
    bankName: text('bank_name'),
    iban: text('iban'),
    accountNumber: text('account_number'),
    routingNumber: text('routing_number'),
    swiftCode: text('swift_code'),
    countryIso: text('country_iso').notNull(),
    countryName: text('country_name').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** The SWIFT group (residency, state, city, zip, address) as JSON text; null for IBAN and US accounts. */
    swiftAddress: text('swift_address'),
    sharedAt: integer('shared_at').notNull(),
  },
  (t) => [index('trade_bank_accounts_source_idx').on(t.bankAccountId)],
);
