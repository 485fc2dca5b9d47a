import { personalChannel } from '../../realtime/channels.ts';
import type { ChainDeps } from './deps.ts';

/** The event on a person's `wallet:<usr_…>` channel that tells their wallet screen to reload. */
export const WALLET_EVENT = 'balances';

/**
 * `{ type: 'balances' }` on the personal wallet channel of everyone whose chain rows changed since
 * the last call: every row change bumps `seq`, so this also notices what other processes wrote.
 */
export function createAnnounce({ repo, bus }: ChainDeps) {
  // Where announcing starts, read now (before anything is announced); a failure surfaces at the
  // first call instead of as an unhandled rejection.
  const start = repo.maxSeq().then(
    (seq) => ({ seq }),
    (error: unknown) => ({ error }),
  );
  let announcedSeq: number | undefined;
  return async function announce(): Promise<void> {
    if (announcedSeq === undefined) {
      const first = await start;
      if ('error' in first) throw first.error;
      announcedSeq ??= first.seq;
    }
    const since = announcedSeq;
    const changed = await repo.changedSince(since);
    if (changed.length === 0) return;
    // Overlapping calls may both announce a change (harmless: a reload); the mark never moves back.
    announcedSeq = Math.max(announcedSeq, changed.at(-1)?.seq ?? since);
    for (const publicId of new Set(changed.map((row) => row.publicId)))
      bus.publish(personalChannel('wallet', publicId), { type: WALLET_EVENT, payload: null });
  };
}
