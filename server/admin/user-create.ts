import { newId } from '../../db/ids.ts';
import { isValidEmail } from '../../src/lib/shared/input-patterns.ts';
import { failedPasswordChecks } from '../../src/lib/shared/password-policy.ts';
import { normalizeEmail } from '../services/accounts/accounts.ts';
import { hashPassword, isCompromisedPassword } from '../services/accounts/password.ts';
import { CommandError, type UserCommandParts } from './user-parts.ts';

/** `user:create`: an account with its e-mail address already verified. */
export async function createUser(
  { repo, now }: UserCommandParts,
  email: string,
  password: string,
  username?: string,
): Promise<string> {
  const address = normalizeEmail(email);
  if (!isValidEmail(address)) throw new CommandError(`Not a valid e-mail address: ${email}`);
  if (await repo.userByEmail(address)) throw new CommandError(`An account with ${address} exists already.`);
  const failed = failedPasswordChecks(password);
  if (failed.length > 0) throw new CommandError(`The password needs: ${failed.join(', ')}.`);
  if (isCompromisedPassword(password)) throw new CommandError('That password is on leaked-password lists.');
  const name = username ?? `${address.split('@')[0]?.replace(/[^A-Za-z0-9]/g, '') || 'user'}${now() % 10000}`;
  if (await repo.usernameTaken(name)) throw new CommandError(`The username ${name} is taken.`);
  const at = now();
  await repo.insertUser({
    publicId: newId('usr'),
    username: name,
    email: address,
    passwordHash: await hashPassword(password),
    referralCode: newId('usr').slice(4, 14).toLowerCase(),
    isEmailVerified: true,
    lastSeenAt: at,
    createdAt: at,
  });
  return `Created ${address} (username ${name}, e-mail verified).`;
}
