import { asDatabase, type DatabaseLike } from '../../../db/database.ts';

// The reference rows the bank directory and saved accounts name: countries (with their everyday
// currency) and fiat currencies. Read-only.

export interface CountryRow {
  id: number;
  iso: string;
  name: string;
  currencyId: number;
  currencyCode: string;
}

export interface CurrencyRow {
  id: number;
  code: string;
}

const COUNTRY_COLUMNS = `c.id, c.iso, c.name, c.currency_id AS currencyId, fc.code AS currencyCode
  FROM countries c JOIN fiat_currencies fc ON fc.id = c.currency_id`;
const COUNTRY_BY_ID = `SELECT ${COUNTRY_COLUMNS} WHERE c.id = ?`;
const COUNTRY_BY_ISO = `SELECT ${COUNTRY_COLUMNS} WHERE c.iso = ?`;
const CURRENCY_BY_ID = 'SELECT id, code FROM fiat_currencies WHERE id = ?';

export function createBankReferenceRepository(db: DatabaseLike) {
  const { sql } = asDatabase(db);
  return {
    countryById: (id: number) => sql.get<CountryRow>(COUNTRY_BY_ID, [id]),
    countryByIso: (iso: string) => sql.get<CountryRow>(COUNTRY_BY_ISO, [iso]),
    currencyById: (id: number) => sql.get<CurrencyRow>(CURRENCY_BY_ID, [id]),
  };
}

export type BankReferenceRepository = ReturnType<typeof createBankReferenceRepository>;
