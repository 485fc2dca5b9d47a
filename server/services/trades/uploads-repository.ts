import { gated } from '../../../db/access.ts';
import type { Db } from '../../../db/client.ts';
import type { TradeActorRole } from '../../../db/schema/index.ts';

// Reads and writes of a trade's files (trade_attachments) and the proofs linked to its
// requirements. Statements are prepared once per database; every method answers a promise
// (db/access.ts `gated`); uploads.ts decides.

export interface AttachmentRow {
  id: number;
  publicId: string;
  tradeId: number;
  tradeHash: string;
  uploaderId: number;
  storageName: string;
  contentType: string;
  isForModerator: number;
  status: 'pending' | 'approved' | 'rejected';
}

export interface ProofRow {
  requirementId: number;
  kind: string;
  stage: 'before_reveal' | 'before_paid';
  requirementStatus: 'pending' | 'uploaded' | 'rejected';
  attachmentId: number | null;
  publicId: string | null;
  contentType: string | null;
  attachmentStatus: 'pending' | 'approved' | 'rejected' | null;
}

export function createTradeUploadsRepository(db: Db) {
  const client = db.$client;
  const insertAttachment = client.prepare<{
    publicId: string;
    tradeId: number;
    uploaderId: number;
    storageName: string;
    contentType: string;
    sizeBytes: number;
    isForModerator: number;
    at: number;
  }>(
    `INSERT INTO trade_attachments (public_id, trade_id, uploader_id, storage_name, content_type, size_bytes,
       is_for_moderator, status, created_at)
     VALUES (@publicId, @tradeId, @uploaderId, @storageName, @contentType, @sizeBytes, @isForModerator, 'pending', @at)`,
  );
  const insertMessage = client.prepare<{
    tradeId: number;
    authorId: number;
    authorRole: TradeActorRole;
    attachmentId: number;
    isForModerator: number;
    at: number;
  }>(
    `INSERT INTO trade_messages (trade_id, author_id, author_role, body, attachment_id, is_for_moderator, created_at)
     VALUES (@tradeId, @authorId, @authorRole, '', @attachmentId, @isForModerator, @at)`,
  );
  const attachmentByPublicId = client.prepare<[string], AttachmentRow>(
    `SELECT a.id, a.public_id AS publicId, a.trade_id AS tradeId, t.hash AS tradeHash, a.uploader_id AS uploaderId,
       a.storage_name AS storageName, a.content_type AS contentType, a.is_for_moderator AS isForModerator, a.status
     FROM trade_attachments a JOIN trades t ON t.id = a.trade_id WHERE a.public_id = ?`,
  );
  const proofsOf = client.prepare<[number], ProofRow>(
    `SELECT r.id AS requirementId, r.kind, r.stage, r.status AS requirementStatus, r.attachment_id AS attachmentId,
       a.public_id AS publicId, a.content_type AS contentType, a.status AS attachmentStatus
     FROM trade_requirements r LEFT JOIN trade_attachments a ON a.id = r.attachment_id
     WHERE r.trade_id = ? ORDER BY r.id`,
  );
  const attachToRequirement = client.prepare<{ requirementId: number; attachmentId: number; at: number }>(
    `UPDATE trade_requirements SET status = 'uploaded', attachment_id = @attachmentId, updated_at = @at
     WHERE id = @requirementId`,
  );
  const setRequirementStatus = client.prepare<{ requirementId: number; status: string; at: number }>(
    'UPDATE trade_requirements SET status = @status, updated_at = @at WHERE id = @requirementId',
  );
  // Guarded by the status it read: two reviewers at once change it once.
  const reviewAttachment = client.prepare<{ id: number; status: string; reviewerId: number }>(
    `UPDATE trade_attachments SET status = @status, reviewed_by = @reviewerId WHERE id = @id AND status = 'pending'`,
  );

  return gated(db, {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db,
    insertAttachment: (row: Parameters<typeof insertAttachment.run>[0]): number =>
      Number(insertAttachment.run(row).lastInsertRowid),
    insertAttachmentMessage: (row: Parameters<typeof insertMessage.run>[0]): number =>
      Number(insertMessage.run(row).lastInsertRowid),
    attachment: (publicId: string) => attachmentByPublicId.get(publicId),
    proofsOf: (tradeId: number) => proofsOf.all(tradeId),
    attachToRequirement: (requirementId: number, attachmentId: number, at: number) =>
      attachToRequirement.run({ requirementId, attachmentId, at }),
    setRequirementStatus: (requirementId: number, status: 'uploaded' | 'rejected', at: number) =>
      setRequirementStatus.run({ requirementId, status, at }),
    /** Decides a pending attachment; false when it was no longer pending. */
    review: (id: number, status: 'approved' | 'rejected', reviewerId: number): boolean =>
      reviewAttachment.run({ id, status, reviewerId }).changes === 1,
  });
}

export type TradeUploadsRepository = ReturnType<typeof createTradeUploadsRepository>;
