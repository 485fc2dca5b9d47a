import type { ServiceContext } from '../context.ts';
import { accountKey } from './accounts.ts';
import { checkPost } from './checks.ts';
import type { LedgerCore } from './execute.ts';
import { fingerprintOf } from './fingerprint.ts';
import type { LedgerTransaction, PostInput } from './types.ts';

/**
 * A transaction of `legs` that sum to zero per currency. Retrying with the same key returns the
 * first transaction (`replayed: true`) and writes nothing; a key is taken only by a commit, so a
 * request refused for insufficient funds may be retried with its key once funds arrive.
 */
export function createPost({ execute, replay, now, ensureAccount, write, committed }: LedgerCore) {
  return async function post(ctx: ServiceContext, input: PostInput): Promise<LedgerTransaction> {
    checkPost(input);
    const fingerprint = fingerprintOf('post', {
      kind: input.kind,
      legs: input.legs.map((leg) => [accountKey(leg.account), leg.amount]).sort(),
      memo: input.memo,
      metadata: input.metadata,
    });
    return execute(ctx, async () => {
      const first = await replay(input.idempotencyKey, fingerprint);
      if (first) return first;
      const at = now();
      const legs = [];
      for (const leg of input.legs) legs.push({ account: await ensureAccount(leg.account, at), amount: leg.amount });
      const id = await write(
        ctx,
        'post',
        { kind: input.kind, key: input.idempotencyKey, fingerprint, memo: input.memo, metadata: input.metadata },
        legs,
        at,
      );
      return committed(id);
    });
  };
}
