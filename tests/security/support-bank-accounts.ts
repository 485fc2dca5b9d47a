import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.ts';

// The bank-account part of the security suite's world (issue 19), built by support-fixtures.ts:
// A's saved US accounts, one kept (read, changed, shared into A's trade as its seller) and one
// to delete. No one but A may read or change them.

export interface BankAccountWorld {
  /** A's account for the GET, PUT and share samples. */
  main: string;
  /** A's account for the DELETE sample. */
  disposable: string;
  /** A US account's payload; `accountNumber` makes it another account. */
  body: (accountNumber: string) => Record<string, unknown>;
}

type Caller = { post: (path: string, json?: unknown) => Promise<Response> };

export async function buildBankAccountWorld(t: TestApp, A: Caller): Promise<BankAccountWorld> {
  const idOf = async (query: string, value: string) => Number((await t.db.sql.get<{ id: number }>(query, [value]))?.id);
  const countryId = await idOf('SELECT id FROM countries WHERE iso = ?', 'US');
  const currencyId = await idOf('SELECT id FROM fiat_currencies WHERE code = ?', 'USD');
  const body = (accountNumber: string) => ({
    fiat_currency_id: currencyId,
    holder_name: 'Vendor A',
    is_personal: true,
    country_id: countryId,
    account_number: accountNumber,
    // JPMorgan Chase, New York.
    routing_number: '021000021',
  });
  const save = async (accountNumber: string) => {
    const res = await A.post('/rest/v1/bankaccounts', body(accountNumber));
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  return { main: await save('100200300'), disposable: await save('100200301'), body };
}
