import { immediate, type PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { isActive } from './state-machine.ts';
import {
  ATTACHMENT_ID,
  ATTACHMENT_URL_PREFIX,
  announceRequirement,
  notRunning,
  requirementOf,
  type TradeUploadView,
  uploadsOf,
} from './upload-proofs.ts';
import type { TradeUploadsParts } from './uploads.ts';

/**
 * Links one of the caller's attachments (its URL from the attachments answer) to a requirement:
 * only the person who answered the offer proves anything; the requirement counts as uploaded
 * and the proof waits for the owner's review. Checked and linked in one transaction: a review,
 * another proof of the same file or the trade's end cannot slip in between.
 */
export async function prove(
  { repo, trades, bus, now }: TradeUploadsParts,
  ctx: PersonContext,
  { hash, url, requirementId }: { hash: string; url: string; requirementId: number },
): Promise<TradeUploadView[]> {
  const userId = ctx.auth.user.id;
  const row = await immediate(repo.db, async () => {
    const { row } = await trades.access(ctx, { hash });
    if (userId !== row.responderId) {
      throw new AppError('FORBIDDEN', 'Only the person who answered the offer uploads its proofs.', {
        key: 'trade_proof_not_responder',
      });
    }
    if (!isActive(row.status)) throw notRunning();
    const publicId = url.startsWith(ATTACHMENT_URL_PREFIX) ? url.slice(ATTACHMENT_URL_PREFIX.length) : '';
    const attachment = ATTACHMENT_ID.test(publicId) ? await repo.attachment(publicId) : undefined;
    if (!attachment || attachment.tradeId !== row.id || attachment.uploaderId !== userId || attachment.isForModerator) {
      throw invalidInput([
        { field: 'url', message: 'must be the URL of a file you sent in this trade', key: 'trade_proof_url' },
      ]);
    }
    const requirement = await requirementOf(repo, row.id, requirementId);
    if (requirement.attachmentStatus === 'approved') {
      throw new AppError('FORBIDDEN', 'This requirement is approved already.', { key: 'trade_requirement_approved' });
    }
    const proofs = await repo.proofsOf(row.id);
    if (attachment.status !== 'pending' || proofs.some((p) => p.attachmentId === attachment.id)) {
      throw invalidInput([{ field: 'url', message: 'send a new file for this requirement', key: 'trade_proof_used' }]);
    }
    await repo.attachToRequirement(requirementId, attachment.id, now());
    return row;
  });
  announceRequirement(bus, row.hash, requirementId);
  return uploadsOf(repo, row.id);
}
