import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { codeMatches, MAX_WRONG_TRIES } from './codes.ts';
import { fieldError, type PhoneDeps } from './deps.ts';
import { NO_NUMBER } from './repository.ts';

/** Marks the pending number verified when `phoneCode` is its code. */
export async function confirmPhone(
  { repo, now }: PhoneDeps,
  ctx: PersonContext,
  { phoneCode }: { phoneCode: string },
): Promise<{ phone: string }> {
  const { user } = ctx.auth;
  const code = phoneCode.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) throw fieldError('phoneCode', 'Enter the 6-digit code from the message.');
  const at = now();
  // Decided inside the transaction, thrown outside it: a wrong try must be counted, and a
  // throw inside would roll the count back.
  const outcome = await immediate(repo.db, async () => {
    const row = await repo.phoneOf(user.id);
    if (!row || row.number === NO_NUMBER || row.codeHash === null || row.codeExpiresAt === null) {
      return { kind: 'none' } as const;
    }
    if (row.codeExpiresAt <= at) {
      await repo.clearCode(user.id);
      return { kind: 'expired' } as const;
    }
    if (!codeMatches(code, row.codeHash)) {
      const left = MAX_WRONG_TRIES - (row.codeAttempts + 1);
      if (left <= 0) await repo.clearCode(user.id);
      else await repo.countWrongTry(user.id);
      return { kind: 'wrong', left } as const;
    }
    if (await repo.verifiedByAnother(row.number, user.id)) {
      await repo.clearCode(user.id);
      return { kind: 'taken' } as const;
    }
    await repo.markVerified(user.id, at);
    return { kind: 'verified', number: row.number } as const;
  });

  switch (outcome.kind) {
    case 'none':
      throw new AppError('TOKEN_INVALID', 'No code is waiting for confirmation. Request a new one.', {
        field: 'phoneCode',
      });
    case 'expired':
      throw new AppError('TOKEN_INVALID', 'This code has expired. Request a new one.', { field: 'phoneCode' });
    case 'wrong':
      throw fieldError(
        'phoneCode',
        outcome.left > 0
          ? `This code is not correct. ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left.`
          : 'This code is not correct, and it was the last try. Request a new code.',
      );
    case 'taken':
      throw fieldError('phone', 'This number has meanwhile been verified on another account.');
    case 'verified':
      return { phone: outcome.number };
  }
}
