import type { PersonContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { ATTACHMENT_ID } from './upload-proofs.ts';
import type { TradeUploadsParts } from './uploads.ts';

/**
 * An attachment's bytes for someone who may read the trade; moderator-only files for
 * moderators and their uploader. Anyone else gets the same 404 as for a name that never was.
 */
export async function readAttachment(
  { repo, trades, files }: TradeUploadsParts,
  ctx: PersonContext,
  { publicId }: { publicId: string },
) {
  const attachment = ATTACHMENT_ID.test(publicId) ? await repo.attachment(publicId) : undefined;
  if (!attachment) throw notFound('File');
  const { role } = await trades.access(ctx, { hash: attachment.tradeHash });
  if (attachment.isForModerator && role !== 'moderator' && attachment.uploaderId !== ctx.auth.user.id) {
    throw notFound('File');
  }
  return { bytes: await files.read(attachment.storageName), contentType: attachment.contentType };
}
