import { newId } from '../../../db/ids.ts';
import { isUniqueViolation } from '../../../db/sql-client.ts';
import { GIFT_CARDS_PER_PERSON, type GiftCardView } from '../../../src/lib/shared/views/gift-cards.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { checkCard, type SaveCardInput } from './card-input.ts';
import type { GiftCardsDeps } from './deps.ts';
import type { GiftCardRow } from './repository.ts';
import { cardView } from './views.ts';

// "My gift cards": a card saved free, its code sealed, its uploaded images taken along; one
// transaction, so a refused image or a code saved twice leaves nothing behind.

const duplicate = () =>
  new AppError('GIFT_CARD_DUPLICATE', 'This gift code is already saved on Coinfair.', {
    field: 'code',
    key: 'gift_card_duplicate',
  });

export async function saveCard(
  { repo, vault, now }: GiftCardsDeps,
  ctx: PersonContext,
  input: SaveCardInput,
): Promise<GiftCardView> {
  const ownerId = ctx.auth.user.id;
  const card = await checkCard(repo, input);
  const fingerprint = vault.fingerprint(card.code);
  try {
    return await immediate(repo.db, async () => {
      if ((await repo.liveCount(ownerId)) >= GIFT_CARDS_PER_PERSON) {
        throw new AppError('FORBIDDEN', `You can keep at most ${GIFT_CARDS_PER_PERSON} gift cards at once.`, {
          key: 'gift_cards_too_many',
          params: { max: GIFT_CARDS_PER_PERSON },
        });
      }
      if (await repo.fingerprintTaken(fingerprint)) throw duplicate();
      const at = now();
      const publicId = newId('gcd');
      const id = await repo.insert({
        publicId,
        ownerId,
        paymentMethodId: card.paymentMethodId,
        fiatCurrencyId: card.fiatCurrencyId,
        valueMinor: card.valueMinor,
        kind: card.kind,
        hasReceipt: card.hasReceipt,
        codeSealed: vault.seal(card.code, publicId),
        codeFingerprint: fingerprint,
        at,
      });
      for (const imageId of card.images) {
        const image = await repo.image(imageId);
        if (!image || !(await repo.claimImage(image.id, id, ownerId))) {
          throw invalidInput([
            { field: 'images', message: 'must be images you uploaded for this card', key: 'gift_card_image_unknown' },
          ]);
        }
      }
      await repo.record({ cardId: id, tradeId: null, action: 'saved', actorId: ownerId, actorRole: 'owner', at });
      const row = (await repo.byPublicId(publicId)) as GiftCardRow;
      return cardView(row, await repo.imagesOf(id));
    });
  } catch (error) {
    // Two saves of one code at once: the unique index lets one in.
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}
