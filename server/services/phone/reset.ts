import { immediate, type PersonContext } from '../context.ts';
import { recentSends } from './codes.ts';
import type { PhoneDeps } from './deps.ts';

/** Removes the number, verified or pending. The send history stays while the limits need it. */
export async function resetPhone({ repo, now }: PhoneDeps, ctx: PersonContext): Promise<void> {
  const { user } = ctx.auth;
  const at = now();
  await immediate(repo.db, async () => {
    const row = await repo.phoneOf(user.id);
    if (!row) return;
    const sends = recentSends(row.codesSentAt, at);
    if (sends.length === 0) await repo.deleteRow(user.id);
    else await repo.forgetNumber(user.id, sends);
  });
}
