import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase62 } from '../../../db/ids.ts';
import {
  BLOCKED_BY_OPPONENT,
  TRADE_ATTACHMENT_MAX_BYTES,
  TRADE_ATTACHMENT_MAX_FILES,
} from '../../../src/lib/shared/trade-attachments.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import type { AuthState } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import { processDocument } from '../verification/document-file.ts';
import type { TradesRepository } from './repository.ts';
import { isActive } from './state-machine.ts';
import type { TradeMessageView, TradesService } from './trades.ts';
import type { ProofRow, TradeUploadsRepository } from './uploads-repository.ts';

// Files of a trade (docs/decisions.md 2026-11-24 "Trade uploads"): chat attachments, and proofs
// the person who answered the offer links to the offer's requirements for its owner (or a
// moderator) to approve or reject. The bytes decide what a file is, with the verification
// documents' checks (magic bytes, polyglots, active PDF content, pixel limits, images re-encoded
// without metadata); every file of a request passes them before anything is stored. Files live
// under UPLOADS_DIR/trades/ by names we generate and are served only to the trade's readers.

/** `/uploads/trades/<public id>`: the URL of an attachment, as the chat and the uploads list give it. */
export const ATTACHMENT_URL_PREFIX = '/uploads/trades/';
export const ATTACHMENT_ID = /^att_[0-9A-Za-z]{16}$/;
const STORED_NAME = /^[0-9a-f]{32}\.(?:jpg|pdf)$/;

export interface TradeUploadView {
  /** The attachment's public id. */
  id: string;
  requirementId: number;
  kind: string;
  stage: ProofRow['stage'];
  /** The proof's review: pending, then approved or rejected (spec section 4). */
  status: 'pending' | 'approved' | 'rejected';
  requirementStatus: ProofRow['requirementStatus'];
  resource: { url: string; contentType: string };
}

export interface TradeUploadsDeps {
  repo: TradeUploadsRepository;
  tradesRepo: Pick<TradesRepository, 'blocked'>;
  trades: Pick<TradesService, 'access' | 'publishStored'>;
  bus: EventBus;
  /** UPLOADS_DIR; files go to its `trades/` folder. */
  root: string;
  now: () => number;
}

export const attachmentTooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `A file is too large: at most ${TRADE_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB each.`,
    {
      field: 'files',
      key: 'trade_file_size',
      params: { megabytes: TRADE_ATTACHMENT_MAX_BYTES / 1024 / 1024 },
    },
  );

const filesIssue = (message: string, key: string, params?: Record<string, string | number>) =>
  invalidInput([{ field: 'files', message, key, ...(params ? { params } : {}) }]);

/**
 * The document checks name their form field `file`; here it is `files`. A file that is no JPEG,
 * PNG or PDF at all is 415; one that claims to be but is not readable as one stays 400.
 */
async function checked(bytes: Uint8Array) {
  try {
    return await processDocument(bytes);
  } catch (error) {
    if (!(error instanceof AppError) || error.field !== 'file') throw error;
    const details = error.details?.map((issue) => ({ ...issue, field: 'files' }));
    if (details?.[0]?.key === 'verification_file_type') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send a JPEG, PNG or PDF file.', {
        field: 'files',
        key: 'trade_file_type',
      });
    }
    throw new AppError(error.code, error.message, {
      field: 'files',
      ...(details ? { details } : {}),
      ...(error.key ? { key: error.key } : {}),
      ...(error.params ? { params: error.params } : {}),
    });
  }
}

export function createTradeUploadsService({ repo, tradesRepo, trades, bus, root, now }: TradeUploadsDeps) {
  const dir = join(root, 'trades');

  const store = async (contentType: string, bytes: Uint8Array): Promise<string> => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const name = `${randomBytes(16).toString('hex')}.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
    await writeFile(join(dir, name), bytes, { flag: 'wx', mode: 0o600 });
    return name;
  };
  const remove = (name: string) => rm(join(dir, name), { force: true });

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
  const uploadsOf = (tradeId: number) =>
    repo.proofsOf(tradeId).flatMap((proof) => {
      const view = toView(proof);
      return view ? [view] : [];
    });

  /** The other page (and the reviewer's) reloads the trade and its uploads on this. */
  const announce = (hash: string, requirementId: number) =>
    bus.publish(tradeChannel(hash), { type: 'requirements', payload: { requirementId } });

  const requirementOf = (tradeId: number, requirementId: number) => {
    const proof = repo.proofsOf(tradeId).find((p) => p.requirementId === requirementId);
    if (!proof) {
      throw invalidInput([
        { field: 'requirement', message: 'is not a requirement of this trade', key: 'trade_requirement_unknown' },
      ]);
    }
    return proof;
  };

  const notRunning = () =>
    new AppError('TRADE_STATE_CHANGED', 'This trade has ended; its proofs can no longer change.', {
      key: 'trade_state_changed',
    });

  return {
    /**
     * Chat attachments (spec section 7: files and is_for_moderator → success and data): each file
     * becomes an attachment and a chat line, published like a message.
     */
    async attach({
      auth,
      hash,
      files,
      isForModerator,
    }: {
      auth: AuthState;
      hash: string;
      files: Uint8Array[];
      isForModerator: boolean;
    }): Promise<TradeMessageView[]> {
      const { row, role } = trades.access({ auth, hash });
      if (role !== 'moderator') {
        const opponentId = role === 'buyer' ? row.sellerId : row.buyerId;
        if (tradesRepo.blocked(opponentId, auth.user.id)) {
          throw new AppError('FORBIDDEN', 'Your trade partner has blocked you: you cannot send them files.', {
            key: 'trade_blocked_by_opponent',
            meta: { reason: BLOCKED_BY_OPPONENT },
          });
        }
      }
      if (files.length === 0) throw filesIssue('Choose a file to send.', 'trade_files_missing');
      if (files.length > TRADE_ATTACHMENT_MAX_FILES) {
        throw filesIssue(`Send at most ${TRADE_ATTACHMENT_MAX_FILES} files at once.`, 'trade_files_too_many', {
          max: TRADE_ATTACHMENT_MAX_FILES,
        });
      }
      if (files.some((file) => file.length > TRADE_ATTACHMENT_MAX_BYTES)) throw attachmentTooLarge();
      // Every file passes before the first is stored: a refused request leaves nothing behind.
      const processed: Awaited<ReturnType<typeof checked>>[] = [];
      for (const file of files) processed.push(await checked(file));
      const names: string[] = [];
      let messageIds: number[];
      try {
        for (const file of processed) names.push(await store(file.contentType, file.bytes));
        const at = now();
        messageIds = repo.transaction(() =>
          processed.map((file, i) => {
            const attachmentId = repo.insertAttachment({
              publicId: `att_${randomBase62(16)}`,
              tradeId: row.id,
              uploaderId: auth.user.id,
              storageName: names[i] as string,
              contentType: file.contentType,
              sizeBytes: file.bytes.length,
              isForModerator: isForModerator ? 1 : 0,
              at,
            });
            return repo.insertAttachmentMessage({
              tradeId: row.id,
              authorId: auth.user.id,
              authorRole: role,
              attachmentId,
              isForModerator: isForModerator ? 1 : 0,
              at,
            });
          }),
        );
      } catch (error) {
        await Promise.all(names.map(remove));
        throw error;
      }
      return messageIds.map((id) => trades.publishStored(row, id, { id: auth.user.id, role }, isForModerator));
    },

    /** The proofs linked to the trade's requirements (spec: items with resource.url, id, status). */
    list({ auth, hash }: { auth: AuthState; hash: string }): TradeUploadView[] {
      const { row } = trades.access({ auth, hash });
      return uploadsOf(row.id);
    },

    /**
     * Links one of the caller's attachments (its URL from the attachments answer) to a requirement:
     * only the person who answered the offer proves anything; the requirement counts as uploaded
     * and the proof waits for the owner's review.
     */
    prove({ auth, hash, url, requirementId }: { auth: AuthState; hash: string; url: string; requirementId: number }) {
      const { row } = trades.access({ auth, hash });
      if (auth.user.id !== row.responderId) {
        throw new AppError('FORBIDDEN', 'Only the person who answered the offer uploads its proofs.', {
          key: 'trade_proof_not_responder',
        });
      }
      if (!isActive(row.status)) throw notRunning();
      const publicId = url.startsWith(ATTACHMENT_URL_PREFIX) ? url.slice(ATTACHMENT_URL_PREFIX.length) : '';
      const attachment = ATTACHMENT_ID.test(publicId) ? repo.attachment(publicId) : undefined;
      if (
        !attachment ||
        attachment.tradeId !== row.id ||
        attachment.uploaderId !== auth.user.id ||
        attachment.isForModerator
      ) {
        throw invalidInput([
          { field: 'url', message: 'must be the URL of a file you sent in this trade', key: 'trade_proof_url' },
        ]);
      }
      const requirement = requirementOf(row.id, requirementId);
      if (requirement.attachmentStatus === 'approved') {
        throw new AppError('FORBIDDEN', 'This requirement is approved already.', { key: 'trade_requirement_approved' });
      }
      const proofs = repo.proofsOf(row.id);
      if (attachment.status !== 'pending' || proofs.some((p) => p.attachmentId === attachment.id)) {
        throw invalidInput([
          { field: 'url', message: 'send a new file for this requirement', key: 'trade_proof_used' },
        ]);
      }
      repo.attachToRequirement(requirementId, attachment.id, now());
      announce(row.hash, requirementId);
      return uploadsOf(row.id);
    },

    /** The offer's owner or a moderator approves or rejects the proof of a requirement. */
    review({
      auth,
      hash,
      action,
      requirementId,
    }: {
      auth: AuthState;
      hash: string;
      action: 'approve' | 'reject';
      requirementId: number;
    }) {
      const { row, role } = trades.access({ auth, hash });
      if (auth.user.id !== row.ownerId && role !== 'moderator') {
        throw new AppError('FORBIDDEN', 'Only the offer’s owner or a moderator reviews proofs.', {
          key: 'trade_proof_not_reviewer',
        });
      }
      if (!isActive(row.status)) throw notRunning();
      const requirement = requirementOf(row.id, requirementId);
      if (requirement.attachmentId === null) {
        throw invalidInput([{ field: 'id', message: 'has no proof to review yet', key: 'trade_proof_missing' }]);
      }
      const status = action === 'approve' ? 'approved' : 'rejected';
      if (requirement.attachmentStatus === status) return uploadsOf(row.id); // a double click
      const attachmentId = requirement.attachmentId;
      const changed = repo.transaction(() => {
        if (!repo.review(attachmentId, status, auth.user.id)) return false;
        // A rejected proof must be sent again: the requirement holds progress back once more.
        if (status === 'rejected') repo.setRequirementStatus(requirementId, 'rejected', now());
        return true;
      });
      if (!changed) {
        throw new AppError('TRADE_STATE_CHANGED', 'This proof was reviewed already; reload the trade.', {
          key: 'trade_state_changed',
        });
      }
      announce(row.hash, requirementId);
      return uploadsOf(row.id);
    },

    /**
     * An attachment's bytes for someone who may read the trade; moderator-only files for
     * moderators and their uploader. Anyone else gets the same 404 as for a name that never was.
     */
    async read({ auth, publicId }: { auth: AuthState; publicId: string }) {
      const attachment = ATTACHMENT_ID.test(publicId) ? repo.attachment(publicId) : undefined;
      if (!attachment) throw notFound('File');
      const { role } = trades.access({ auth, hash: attachment.tradeHash });
      if (attachment.isForModerator && role !== 'moderator' && attachment.uploaderId !== auth.user.id) {
        throw notFound('File');
      }
      if (!STORED_NAME.test(attachment.storageName)) throw notFound('File');
      try {
        return { bytes: await readFile(join(dir, attachment.storageName)), contentType: attachment.contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('File');
        throw error;
      }
    },
  };
}

export type TradeUploadsService = ReturnType<typeof createTradeUploadsService>;
