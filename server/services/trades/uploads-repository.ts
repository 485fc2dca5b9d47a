import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { TradeActorRole } from '../../../db/schema/index.ts';

// Reads and writes of a trade's files (trade_attachments) and the proofs linked to its
// requirements, in SQL that SQLite and PostgreSQL both run (db/sql-client.ts caches each text);
// every method answers a promise; uploads.ts decides.

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

export interface NewAttachment {
  publicId: string;
  tradeId: number;
  uploaderId: number;
  storageName: string;
  contentType: string;
  sizeBytes: number;
  isForModerator: number;
  at: number;
}

export interface NewAttachmentMessage {
  tradeId: number;
  authorId: number;
  authorRole: TradeActorRole;
  attachmentId: number;
  isForModerator: number;
  at: number;
}

const INSERT_ATTACHMENT = `INSERT INTO trade_attachments (public_id, trade_id, uploader_id, storage_name, content_type,
    size_bytes, is_for_moderator, status, created_at)
  VALUES (@publicId, @tradeId, @uploaderId, @storageName, @contentType, @sizeBytes, @isForModerator, 'pending', @at)
  RETURNING id`;
const INSERT_MESSAGE = `INSERT INTO trade_messages (trade_id, author_id, author_role, body, attachment_id,
    is_for_moderator, created_at)
  VALUES (@tradeId, @authorId, @authorRole, '', @attachmentId, @isForModerator, @at)
  RETURNING id`;
const ATTACHMENT_BY_PUBLIC_ID = `SELECT a.id, a.public_id AS publicId, a.trade_id AS tradeId, t.hash AS tradeHash,
    a.uploader_id AS uploaderId, a.storage_name AS storageName, a.content_type AS contentType,
    a.is_for_moderator AS isForModerator, a.status
  FROM trade_attachments a JOIN trades t ON t.id = a.trade_id WHERE a.public_id = ?`;
const PROOFS_OF = `SELECT r.id AS requirementId, r.kind, r.stage, r.status AS requirementStatus,
    r.attachment_id AS attachmentId, a.public_id AS publicId, a.content_type AS contentType,
    a.status AS attachmentStatus
  FROM trade_requirements r LEFT JOIN trade_attachments a ON a.id = r.attachment_id
  WHERE r.trade_id = ? ORDER BY r.id`;
const ATTACH_TO_REQUIREMENT = `UPDATE trade_requirements SET status = 'uploaded', attachment_id = @attachmentId,
    updated_at = @at
  WHERE id = @requirementId`;
const SET_REQUIREMENT_STATUS =
  'UPDATE trade_requirements SET status = @status, updated_at = @at WHERE id = @requirementId';
// Guarded by the status it read: two reviewers at once change it once.
const REVIEW_ATTACHMENT = `UPDATE trade_attachments SET status = @status, reviewed_by = @reviewerId
  WHERE id = @id AND status = 'pending'`;

export function createTradeUploadsRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    insertAttachment: async (row: NewAttachment): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_ATTACHMENT, [row]))?.id),
    insertAttachmentMessage: async (row: NewAttachmentMessage): Promise<number> =>
      Number((await sql.get<{ id: number }>(INSERT_MESSAGE, [row]))?.id),
    attachment: (publicId: string) => sql.get<AttachmentRow>(ATTACHMENT_BY_PUBLIC_ID, [publicId]),
    proofsOf: (tradeId: number) => sql.all<ProofRow>(PROOFS_OF, [tradeId]),
    attachToRequirement: (requirementId: number, attachmentId: number, at: number) =>
      sql.run(ATTACH_TO_REQUIREMENT, [{ requirementId, attachmentId, at }]),
    setRequirementStatus: (requirementId: number, status: 'uploaded' | 'rejected', at: number) =>
      sql.run(SET_REQUIREMENT_STATUS, [{ requirementId, status, at }]),
    /** Decides a pending attachment; false when it was no longer pending. */
    review: async (id: number, status: 'approved' | 'rejected', reviewerId: number): Promise<boolean> =>
      (await sql.run(REVIEW_ATTACHMENT, [{ id, status, reviewerId }])).changes === 1,
  };
}

export type TradeUploadsRepository = ReturnType<typeof createTradeUploadsRepository>;
