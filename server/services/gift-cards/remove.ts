import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { GiftCardsDeps } from './deps.ts';

// DELETE /rest/v1/gift-cards/{id}: only its owner, only while free. The row stays for the trail,
// without its code; its pictures go.

export async function removeCard({ repo, files, now }: GiftCardsDeps, ctx: PersonContext, { id }: { id: string }) {
  const ownerId = ctx.auth.user.id;
  const images = await immediate(repo.db, async () => {
    const card = await repo.byPublicId(id);
    // Someone else's card is as unknown as a card that never was.
    if (!card || card.ownerId !== ownerId || card.state === 'deleted') throw notFound('Gift card', 'id');
    const at = now();
    if (!(await repo.remove(card.id, at))) {
      throw new AppError('GIFT_CARD_UNAVAILABLE', 'This card is in a trade; it can be deleted once it is free again.', {
        field: 'id',
        key: 'gift_card_in_trade',
      });
    }
    await repo.record({ cardId: card.id, tradeId: null, action: 'deleted', actorId: ownerId, actorRole: 'owner', at });
    const stored = await repo.imagesOf(card.id);
    for (const image of stored) await repo.deleteImage(image.id);
    return stored;
  });
  // After the commit: a file removed for a deletion that rolled back could not come back.
  await Promise.all(images.map((image) => files.remove(image.storageName)));
  return { success: true };
}
