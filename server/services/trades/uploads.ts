import type { EventBus } from '../../realtime/bus.ts';
import { bindVerb, type PersonContext } from '../context.ts';
import { attach } from './attach.ts';
import { prove } from './prove.ts';
import { readAttachment } from './read-attachment.ts';
import type { TradesRepository } from './repository.ts';
import { reviewProof } from './review-proof.ts';
import type { TradesService } from './trades.ts';
import { createFileStore, type FileStore } from './upload-files.ts';
import { uploadsOf } from './upload-proofs.ts';
import type { TradeUploadsRepository } from './uploads-repository.ts';

// Files of a trade (docs/decisions/075-trade-uploads-and-trade-page.md 2026-11-24 "Trade uploads"): chat attachments, and proofs
// the person who answered the offer links to the offer's requirements for its owner (or a
// moderator) to approve or reject. The bytes decide what a file is, with the verification
// documents' checks (magic bytes, polyglots, active PDF content, pixel limits, images re-encoded
// without metadata); every file of a request passes them before anything is stored. Files live
// under UPLOADS_DIR/trades/ by names we generate and are served only to the trade's readers.
// One verb per file (attach.ts, prove.ts, review-proof.ts, read-attachment.ts); this wires them.

export { attachmentTooLarge } from './upload-files.ts';
export { ATTACHMENT_ID, ATTACHMENT_URL_PREFIX, type TradeUploadView } from './upload-proofs.ts';

export interface TradeUploadsDeps {
  repo: TradeUploadsRepository;
  tradesRepo: Pick<TradesRepository, 'blocked'>;
  trades: Pick<TradesService, 'access' | 'publishStored' | 'recordStored'>;
  bus: EventBus;
  /** UPLOADS_DIR; files go to its `trades/` folder. */
  root: string;
  now: () => number;
}

/** What every verb is given: the deps and the folder the files live in. */
export interface TradeUploadsParts extends Omit<TradeUploadsDeps, 'root'> {
  files: FileStore;
}

/** The verb with the area's parts bound: what callers see is `verb(ctx, input)`. */
export function createTradeUploadsService({ root, ...deps }: TradeUploadsDeps) {
  const parts: TradeUploadsParts = { ...deps, files: createFileStore(root) };
  return {
    attach: bindVerb(parts, attach),
    /** The proofs linked to the trade's requirements (spec: items with resource.url, id, status). */
    async list(ctx: PersonContext, { hash }: { hash: string }) {
      const { row } = await deps.trades.access(ctx, { hash });
      return uploadsOf(deps.repo, row.id);
    },
    prove: bindVerb(parts, prove),
    review: bindVerb(parts, reviewProof),
    read: bindVerb(parts, readAttachment),
  };
}

export type TradeUploadsService = ReturnType<typeof createTradeUploadsService>;
