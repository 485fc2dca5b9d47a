import type { PersonContext } from '../context.ts';
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
 * and the proof waits for the owner's review.
 */
export function prove(
  { repo, trades, bus, now }: TradeUploadsParts,
  ctx: PersonContext,
  { hash, url, requirementId }: { hash: string; url: string; requirementId: number },
): TradeUploadView[] {
  const userId = ctx.auth.user.id;
  const { row } = trades.access(ctx, { hash });
  if (userId !== row.responderId) {
    throw new AppError('FORBIDDEN', 'Only the person who answered the offer uploads its proofs.', {
      key: 'trade_proof_not_responder',
    });
  }
  if (!isActive(row.status)) throw notRunning();
  const publicId = url.startsWith(ATTACHMENT_URL_PREFIX) ? url.slice(ATTACHMENT_URL_PREFIX.length) : '';
  const attachment = ATTACHMENT_ID.test(publicId) ? repo.attachment(publicId) : undefined;
  if (!attachment || attachment.tradeId !== row.id || attachment.uploaderId !== userId || attachment.isForModerator) {
    throw invalidInput([
      { field: 'url', message: 'must be the URL of a file you sent in this trade', key: 'trade_proof_url' },
    ]);
  }
  const requirement = requirementOf(repo, row.id, requirementId);
  if (requirement.attachmentStatus === 'approved') {
    throw new AppError('FORBIDDEN', 'This requirement is approved already.', { key: 'trade_requirement_approved' });
  }
  const proofs = repo.proofsOf(row.id);
  if (attachment.status !== 'pending' || proofs.some((p) => p.attachmentId === attachment.id)) {
    throw invalidInput([{ field: 'url', message: 'send a new file for this requirement', key: 'trade_proof_used' }]);
  }
  repo.attachToRequirement(requirementId, attachment.id, now());
  announceRequirement(bus, row.hash, requirementId);
  return uploadsOf(repo, row.id);
}
