import { immediate, type PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { isActive } from './state-machine.ts';
import { announceRequirement, notRunning, requirementOf, type TradeUploadView, uploadsOf } from './upload-proofs.ts';
import type { TradeUploadsParts } from './uploads.ts';

/** The offer's owner or a moderator approves or rejects the proof of a requirement. */
export function reviewProof(
  { repo, trades, bus, now }: TradeUploadsParts,
  ctx: PersonContext,
  { hash, action, requirementId }: { hash: string; action: 'approve' | 'reject'; requirementId: number },
): TradeUploadView[] {
  const userId = ctx.auth.user.id;
  const { row, role } = trades.access(ctx, { hash });
  if (userId !== row.ownerId && role !== 'moderator') {
    throw new AppError('FORBIDDEN', 'Only the offer’s owner or a moderator reviews proofs.', {
      key: 'trade_proof_not_reviewer',
    });
  }
  if (!isActive(row.status)) throw notRunning();
  const requirement = requirementOf(repo, row.id, requirementId);
  if (requirement.attachmentId === null) {
    throw invalidInput([{ field: 'id', message: 'has no proof to review yet', key: 'trade_proof_missing' }]);
  }
  const status = action === 'approve' ? 'approved' : 'rejected';
  if (requirement.attachmentStatus === status) return uploadsOf(repo, row.id); // a double click
  const attachmentId = requirement.attachmentId;
  const changed = immediate(repo.db, () => {
    if (!repo.review(attachmentId, status, userId)) return false;
    // A rejected proof must be sent again: the requirement holds progress back once more.
    if (status === 'rejected') repo.setRequirementStatus(requirementId, 'rejected', now());
    return true;
  });
  if (!changed) {
    throw new AppError('TRADE_STATE_CHANGED', 'This proof was reviewed already; reload the trade.', {
      key: 'trade_state_changed',
    });
  }
  announceRequirement(bus, row.hash, requirementId);
  return uploadsOf(repo, row.id);
}
