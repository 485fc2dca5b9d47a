import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../../src/lib/shared/input-patterns.ts';
import { immediate, type PersonContext } from '../context.ts';
import type { UserRow } from '../shared/account-types.ts';
import { fieldError, usernameAlreadyChanged } from './fields.ts';
import type { AccountsDeps } from './types.ts';

/** The person's one username change. */
export async function setUsername(
  { repo }: AccountsDeps,
  ctx: PersonContext,
  { username }: { username: string },
): Promise<UserRow> {
  const { user } = ctx.auth;
  const name = username.trim();
  if (name.length < USERNAME_MIN_LENGTH || name.length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(name)) {
    throw fieldError(
      'username',
      `Use ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} letters and digits, nothing else.`,
      'username_invalid',
      undefined,
      { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH },
    );
  }
  if (user.isUsernameChanged) {
    throw usernameAlreadyChanged();
  }
  // Checked and taken in one transaction: two people asking for one name at once (in any case)
  // cannot both pass the check.
  await immediate(repo.db, async () => {
    if (name.toLowerCase() !== user.username.toLowerCase() && (await repo.usernameTaken(name))) {
      throw fieldError('username', 'This username is taken. Try another one.', 'username_taken');
    }
    if (!(await repo.setUsername(user.id, name))) {
      throw usernameAlreadyChanged();
    }
  });
  return { ...user, username: name, isUsernameChanged: true };
}
