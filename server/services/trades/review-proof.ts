import { immediate, type PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { isActive } from './state-machine.ts';
import { announceRequirement, notRunning, requirementOf, type TradeUploadView, uploadsOf } from './upload-proofs.ts';
import type { TradeUploadsParts } from './uploads.ts';

/**
 * The offer's owner or a moderator approves or rejects the proof of a requirement. Read and
 * decided in one transaction: the proof reviewed is the one the requirement holds, even when the
 * responder sends a new one at the same moment.
 */
export async function reviewProof(
  { repo, trades, bus, now }: TradeUploadsParts,
  ctx: PersonContext,
  { hash, action, requirementId }: { hash: string; action: 'approve' | 'reject'; requirementId: number },
): Promise<TradeUploadView[]> {
  const userId = ctx.auth.user.id;
  const { row, changed } = await immediate(repo.db, async () => {
    const { row, role } = await trades.access(ctx, { hash });
    if (userId !== row.ownerId && role !== 'moderator') {
      throw new AppError('FORBIDDEN', 'Only the offer’s owner or a moderator reviews proofs.', {
        key: 'trade_proof_not_reviewer',
      });
    }
    if (!isActive(row.status)) throw notRunning();
    const requirement = await requirementOf(repo, row.id, requirementId);
    if (requirement.attachmentId === null) {
      throw invalidInput([{ field: 'id', message: 'has no proof to review yet', key: 'trade_proof_missing' }]);
    }
    const status = action === 'approve' ? 'approved' : 'rejected';
    if (requirement.attachmentStatus === status) return { row, changed: null }; // a double click
    if (!(await repo.review(requirement.attachmentId, status, userId))) return { row, changed: false };
    // A rejected proof must be sent again: the requirement holds progress back once more.
    if (status === 'rejected') await repo.setRequirementStatus(requirementId, 'rejected', now());
    return { row, changed: true };
  });
  if (changed === null) return uploadsOf(repo, row.id);
  if (!changed) {
    throw new AppError('TRADE_STATE_CHANGED', 'This proof was reviewed already; reload the trade.', {
      key: 'trade_state_changed',
    });
  }
  announceRequirement(bus, row.hash, requirementId);
  return uploadsOf(repo, row.id);
}
