import { personalChannel } from '../../realtime/channels.ts';
import type { ChainDeps } from './deps.ts';

/** The event on a person's `wallet:<usr_…>` channel that tells their wallet screen to reload. */
export const WALLET_EVENT = 'balances';

/**
 * `{ type: 'balances' }` on the personal wallet channel of everyone whose chain rows changed since
 * the last call: every row change bumps `seq`, so this also notices what other processes wrote.
 */
export function createAnnounce({ repo, bus }: ChainDeps) {
  let announcedSeq = repo.maxSeq();
  return function announce(): void {
    const changed = repo.changedSince(announcedSeq);
    if (changed.length === 0) return;
    announcedSeq = changed.at(-1)?.seq ?? announcedSeq;
    for (const publicId of new Set(changed.map((row) => row.publicId)))
      bus.publish(personalChannel('wallet', publicId), { type: WALLET_EVENT, payload: null });
  };
}
