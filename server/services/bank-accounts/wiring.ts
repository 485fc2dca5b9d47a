import type { DatabaseLike } from '../../../db/database.ts';
import { createBanksService } from '../banks/banks.ts';
import { createBankReferenceRepository } from '../banks/repository.ts';
import { createBankAccountsService } from './bank-accounts.ts';
import type { BankAccountsDeps } from './deps.ts';
import { createBankAccountsRepository } from './repository.ts';
import { tradeAccount } from './share.ts';

// How server/services/container.ts wires the bank area (issue 19): the directory and saved
// accounts as services, and for the trades service the account a trade shows.

export function createBankServices(db: DatabaseLike, deps: Pick<BankAccountsDeps, 'trades' | 'bus' | 'now'>) {
  const reference = createBankReferenceRepository(db);
  return {
    banks: createBanksService({ reference }),
    bankAccounts: createBankAccountsService({ repo: createBankAccountsRepository(db), reference, ...deps }),
  };
}

/** The copy of the account a trade's seller shared into it, or null (the trade view's `bankAccount`). */
export function tradeBankAccountReader(db: DatabaseLike) {
  const repo = createBankAccountsRepository(db);
  return (tradeId: number) => tradeAccount({ repo }, tradeId);
}
