import { immediate, type PersonContext } from '../context.ts';
import { recentSends } from './codes.ts';
import type { PhoneDeps } from './deps.ts';

/** Removes the number, verified or pending. The send history stays while the limits need it. */
export function resetPhone({ repo, now }: PhoneDeps, ctx: PersonContext): void {
  const { user } = ctx.auth;
  const at = now();
  immediate(repo.db, () => {
    const row = repo.phoneOf(user.id);
    if (!row) return;
    const sends = recentSends(row.codesSentAt, at);
    if (sends.length === 0) repo.deleteRow(user.id);
    else repo.forgetNumber(user.id, sends);
  });
}
