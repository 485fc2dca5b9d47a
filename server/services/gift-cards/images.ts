import { newId } from '../../../db/ids.ts';
import type { GiftCardImageView } from '../../../src/lib/shared/views/gift-cards.ts';
import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { attachmentTooLarge, checked } from '../trades/upload-files.ts';
import type { GiftCardsDeps } from './deps.ts';
import { imageUrl } from './views.ts';

// Pictures of a card and its receipt, through the trade files' checks (one format only, bounded
// size and pixels, images re-encoded, PDFs without active content): uploaded first, then taken
// by the card saved with them. Kept under UPLOADS_DIR/gift-cards/, never in a web root.

/** A picture over the size limit, named under the form's field `file`. */
export const pictureTooLarge = () => attachmentTooLarge('file');

/** Uploaded images no card has taken yet, per person: a form left half-done cannot fill a disk. */
export const PENDING_IMAGES_PER_PERSON = 12;
/** An image no card took within a day is swept (the hourly sweep, server/backend.ts). */
export const PENDING_IMAGE_TTL_MS = 24 * 60 * 60 * 1000;

export async function uploadImage(
  { repo, files, now }: GiftCardsDeps,
  ctx: PersonContext,
  { bytes }: { bytes: Uint8Array },
): Promise<GiftCardImageView> {
  const ownerId = ctx.auth.user.id;
  if ((await repo.pendingImages(ownerId)) >= PENDING_IMAGES_PER_PERSON) {
    throw new AppError('RATE_LIMITED', 'Save the card you are adding before uploading more pictures.', {
      field: 'file',
      key: 'gift_card_images_pending',
    });
  }
  const file = await checked(bytes, 'file');
  const storageName = await files.store(file.contentType, file.bytes);
  const publicId = newId('gci');
  try {
    await repo.insertImage({
      publicId,
      ownerId,
      storageName,
      contentType: file.contentType,
      sizeBytes: file.bytes.byteLength,
      at: now(),
    });
  } catch (error) {
    await files.remove(storageName);
    throw error;
  }
  return { id: publicId, url: imageUrl(publicId) };
}

/**
 * GET /uploads/gift-cards/{gci_…}: to its owner, and once its card is in a trade to that trade's
 * seller, and to moderators while the trade is in dispute (a picture of a card's back may show
 * its code, which moderators read only in a dispute); 404 for everyone else, as for an image
 * that never was.
 */
export async function readImage({ repo, files, trades }: GiftCardsDeps, ctx: PersonContext, { id }: { id: string }) {
  const image = await repo.image(id);
  if (!image) throw notFound('Image');
  if (image.ownerId !== ctx.auth.user.id) {
    const card = image.cardId === null ? undefined : await repo.byId(image.cardId);
    if (!card?.tradeHash) throw notFound('Image');
    const { row, role } = await trades.access(ctx, { hash: card.tradeHash }).catch(() => {
      throw notFound('Image');
    });
    if (role === 'buyer' || (role === 'moderator' && row.status !== 'dispute_open')) throw notFound('Image');
  }
  return { bytes: await files.read(image.storageName), contentType: image.contentType, publicId: image.publicId };
}

/** Removes images no card took within PENDING_IMAGE_TTL_MS; answers how many. */
export async function sweepImages({ repo, files, now }: GiftCardsDeps): Promise<number> {
  const stale = await repo.staleImages(now() - PENDING_IMAGE_TTL_MS);
  for (const image of stale) {
    await repo.deleteImage(image.id);
    await files.remove(image.storageName);
  }
  return stale.length;
}
