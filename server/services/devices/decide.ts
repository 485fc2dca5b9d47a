import { immediate, type ServiceContext } from '../context.ts';
import { deviceFingerprint } from './fingerprint.ts';
import { invalidLink, pendingDevice } from './review-token.ts';
import type { DeviceReviewParts } from './types.ts';

/**
 * Confirms or reports a pending device, once. A report ends every session of the user that
 * the device holds: sessions keep ip and user agent, which give the same fingerprint.
 */
export function decideDevice(
  parts: DeviceReviewParts,
  ctx: ServiceContext,
  { token, isConfirmed }: { token: string; isConfirmed: boolean },
): Promise<{ redirectTo: string; sessionsEnded: number }> {
  const { repo, now, sessions } = parts;
  return immediate(repo.db, async () => {
    const found = await pendingDevice(parts, token);
    if (!(await repo.decide(found.id, isConfirmed ? 'confirmed' : 'reported', now()))) throw invalidLink();
    if (isConfirmed) return { redirectTo: '/approved-device', sessionsEnded: 0 };
    const ids = (await repo.sessionsOfUser(found.userId))
      .filter((s) => deviceFingerprint(s.userAgent, s.ip) === found.fingerprint)
      .map((s) => s.id);
    return { redirectTo: '/reported-device', sessionsEnded: await sessions.invalidateMany(ctx, { sessionIds: ids }) };
  });
}
