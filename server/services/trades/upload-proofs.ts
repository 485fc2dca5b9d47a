import type { TradeUploadView } from '../../../src/lib/shared/views/trades.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { ProofRow, TradeUploadsRepository } from './uploads-repository.ts';

// The proofs of a trade's requirements as the uploads list shows them, and what proving and
// reviewing share.

/** `/uploads/trades/<public id>`: the URL of an attachment, as the chat and the uploads list give it. */
export const ATTACHMENT_URL_PREFIX = '/uploads/trades/';
export const ATTACHMENT_ID = /^att_[0-9A-Za-z]{16}$/;

export type { TradeUploadView };

const toView = (proof: ProofRow): TradeUploadView | null =>
  proof.publicId === null || proof.attachmentStatus === null
    ? null
    : {
        id: proof.publicId,
        requirementId: proof.requirementId,
        kind: proof.kind,
        stage: proof.stage,
        status: proof.attachmentStatus,
        requirementStatus: proof.requirementStatus,
        resource: {
          url: `${ATTACHMENT_URL_PREFIX}${proof.publicId}`,
          contentType: proof.contentType ?? 'application/octet-stream',
        },
      };

/** The trade's proofs, requirements without one left out. */
export const uploadsOf = async (repo: TradeUploadsRepository, tradeId: number): Promise<TradeUploadView[]> =>
  (await repo.proofsOf(tradeId)).flatMap((proof) => {
    const view = toView(proof);
    return view ? [view] : [];
  });

/** The other page (and the reviewer's) reloads the trade and its uploads on this. */
export const announceRequirement = (bus: EventBus, hash: string, requirementId: number) =>
  bus.publish(tradeChannel(hash), { type: 'requirements', payload: { requirementId } });

export const requirementOf = async (repo: TradeUploadsRepository, tradeId: number, requirementId: number) => {
  const proof = (await repo.proofsOf(tradeId)).find((p) => p.requirementId === requirementId);
  if (!proof) {
    throw invalidInput([
      { field: 'requirement', message: 'is not a requirement of this trade', key: 'trade_requirement_unknown' },
    ]);
  }
  return proof;
};

export const notRunning = () =>
  new AppError('TRADE_STATE_CHANGED', 'This trade has ended; its proofs can no longer change.', {
    key: 'trade_state_changed',
  });
