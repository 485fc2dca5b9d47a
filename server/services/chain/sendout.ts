import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { systemAccount, walletOf } from '../ledger/ledger.ts';
import { type ChainDeps, newChainTxId, sendoutKey, sendoutRequestKey } from './deps.ts';
import { NETWORKS } from './networks.ts';
import type { ChainTxRow } from './repository.ts';

export interface SendoutInput {
  currency: LedgerCurrency;
  network: ChainNetwork;
  address: string;
  amount: number;
  /** The client's `request_id`; a retry with the same one returns the first sendout. */
  requestId: string;
}

/**
 * A sendout of the signed-in person: the amount and the network fee leave the wallet into the
 * `chain_out` hold in the same transaction that records it as `pending`; the job broadcasts it.
 * The same request id with the same parameters answers the first sendout (`replayed`); with
 * others it is refused.
 */
export function createRequestSendout({ repo, ledger, now }: ChainDeps) {
  return function requestSendout(
    ctx: PersonContext,
    input: SendoutInput,
  ): Promise<{ row: ChainTxRow; replayed: boolean }> {
    const userId = ctx.auth.user.id;
    const policy = NETWORKS[input.network];
    const key = sendoutRequestKey(userId, input.requestId);
    return immediate(repo.db, async (tx) => {
      const existing = await repo.byKey(key);
      if (existing) {
        const same =
          existing.currency === input.currency &&
          existing.network === input.network &&
          existing.address === input.address &&
          existing.amount === input.amount;
        if (!same)
          throw new AppError(
            'IDEMPOTENCY_KEY_REUSED',
            'This request_id was used for a different sendout; use a new one for a new sendout.',
            { field: 'request_id', key: 'idempotency_key_reused' },
          );
        return { row: existing, replayed: true };
      }
      const publicId = newChainTxId();
      const total = input.amount + policy.sendoutFee;
      const posted = await ledger.post(
        { ...ctx, tx },
        {
          kind: 'sendout',
          idempotencyKey: sendoutKey(publicId),
          legs: [
            { account: walletOf(userId, input.currency), amount: -total },
            { account: systemAccount('chain_out', input.currency), amount: total },
          ],
          metadata: { chainTx: publicId, network: input.network, address: input.address, fee: policy.sendoutFee },
        },
      );
      const row = await repo.insertSendout({
        publicId,
        currency: input.currency,
        network: input.network,
        userId,
        address: input.address,
        amount: input.amount,
        fee: policy.sendoutFee,
        requiredConfirmations: policy.requiredConfirmations,
        ledgerTransactionId: await repo.ledgerIdOf(posted.id),
        idempotencyKey: key,
        at: now(),
      });
      return { row, replayed: false };
    });
  };
}
