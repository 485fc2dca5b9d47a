import { randomBytes, randomInt } from 'node:crypto';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../../../src/lib/shared/input-patterns.ts';
import type { AccountsRepository } from './repository.ts';

/** `ada.lovelace+p2p@…` → `adalovelace4821`: readable, unique, letters and digits only. */
export async function generateUsername(
  repo: Pick<AccountsRepository, 'usernameTaken'>,
  email: string,
): Promise<string> {
  const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 14);
  const stem = base.length >= USERNAME_MIN_LENGTH ? base : 'trader';
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = `${stem}${randomInt(1000, 100_000)}`;
    if (!(await repo.usernameTaken(candidate))) return candidate;
  }
  return `${stem}${randomBytes(5).toString('hex')}`.slice(0, USERNAME_MAX_LENGTH);
}
