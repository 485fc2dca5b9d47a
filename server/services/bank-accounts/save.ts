import { newId } from '../../../db/ids.ts';
import { isUniqueViolation } from '../../../db/sql-client.ts';
import type { BankAccountView } from '../../../src/lib/shared/views/bank-accounts.ts';
import { issue } from '../banks/issues.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import { type BankAccountInput, checkAccount } from './account-input.ts';
import { BANK_ACCOUNTS_PER_PERSON, type BankAccountsDeps } from './deps.ts';
import type { BankAccountRow } from './repository.ts';
import { accountView } from './views.ts';

// POST /rest/v1/bankaccounts and PUT /rest/v1/bankaccounts/{id}: the payload checked whole
// (account-input.ts), then written in one transaction. The same account saved twice by one person
// is `non_unique` on the field that names it; two saves racing meet the unique index.

const duplicateOf = (kind: BankAccountRow['kind']) =>
  invalidInput([issue(kind === 'iban' ? 'sepa.iban' : 'account_number', 'non_unique')]);

export async function createAccount(
  { repo, reference, now }: BankAccountsDeps,
  ctx: PersonContext,
  input: BankAccountInput,
): Promise<BankAccountView> {
  const ownerId = ctx.auth.user.id;
  const account = await checkAccount(reference, input);
  const publicId = newId('bac');
  try {
    return await immediate(repo.db, async () => {
      if ((await repo.countOf(ownerId)) >= BANK_ACCOUNTS_PER_PERSON) {
        throw new AppError('FORBIDDEN', `You can keep at most ${BANK_ACCOUNTS_PER_PERSON} bank accounts.`, {
          key: 'bank_accounts_too_many',
          params: { max: BANK_ACCOUNTS_PER_PERSON },
        });
      }
      if (await repo.identityTaken(ownerId, account.identity)) throw duplicateOf(account.kind);
      await repo.insert({ ...account, publicId, ownerId, at: now() });
      return accountView((await repo.owned(publicId, ownerId)) as BankAccountRow);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateOf(account.kind);
    throw error;
  }
}

export async function updateAccount(
  { repo, reference, now }: BankAccountsDeps,
  ctx: PersonContext,
  { id, ...input }: BankAccountInput & { id: string },
): Promise<BankAccountView> {
  const ownerId = ctx.auth.user.id;
  // Someone else's account is as unknown as one that never was: checked before the payload.
  if (!(await repo.owned(id, ownerId))) throw notFound('Bank account', 'id');
  const account = await checkAccount(reference, input);
  try {
    return await immediate(repo.db, async () => {
      const row = await repo.owned(id, ownerId);
      if (!row) throw notFound('Bank account', 'id');
      const holder = await repo.identityTaken(ownerId, account.identity);
      if (holder !== undefined && holder !== row.id) throw duplicateOf(account.kind);
      await repo.update(row.id, ownerId, account, now());
      return accountView((await repo.owned(id, ownerId)) as BankAccountRow);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateOf(account.kind);
    throw error;
  }
}
