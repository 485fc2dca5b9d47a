import { bindVerb, type PersonContext } from '../context.ts';
import type { BankAccountsDeps } from './deps.ts';
import { myAccounts, oneAccount, removeAccount } from './read.ts';
import { createAccount, updateAccount } from './save.ts';
import { shareIntoTrade } from './share.ts';

// Saved bank accounts (issue 19, docs/bank-accounts.md): a person's own accounts (list, read,
// add, change, delete) and the one a seller shares into a bank-transfer trade. One verb per file.

export type { BankAccountsDeps } from './deps.ts';

export function createBankAccountsService(deps: BankAccountsDeps) {
  return {
    mine: (ctx: PersonContext) => myAccounts(deps, ctx),
    one: bindVerb(deps, oneAccount),
    create: bindVerb(deps, createAccount),
    update: bindVerb(deps, updateAccount),
    remove: bindVerb(deps, removeAccount),
    share: bindVerb(deps, shareIntoTrade),
  };
}

export type BankAccountsService = ReturnType<typeof createBankAccountsService>;
