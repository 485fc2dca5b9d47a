import { minorToMajor } from '../../../src/lib/shared/money.ts';
import type { GiftCardView, TradeGiftCardView } from '../../../src/lib/shared/views/gift-cards.ts';
import type { GiftCardImageRow, GiftCardRow, GiftCardsRepository } from './repository.ts';

// A card as the API answers it. The sealed code never leaves this area unopened, and a view
// carries the opened code only where the verb that asked for it decided the reader may see it.

export const imageUrl = (publicId: string) => `/uploads/gift-cards/${publicId}`;

export function cardView(row: GiftCardRow, images: GiftCardImageRow[]): GiftCardView {
  return {
    id: row.publicId,
    value: minorToMajor(row.valueMinor, row.fiatMinorUnits),
    fiatCurrency: { id: row.fiatCurrencyId, code: row.fiatCode },
    paymentMethod: { id: row.paymentMethodId, name: row.paymentMethodName, slug: row.paymentMethodSlug },
    receipt: row.hasReceipt === 1,
    type: row.kind,
    state: row.state,
    images: images.map((image) => ({ id: image.publicId, url: imageUrl(image.publicId) })),
    tradeHash: row.tradeHash,
    createdAt: Math.floor(row.createdAt / 1000),
  };
}

/** Cards with their images, in the order given. */
export async function cardViews(repo: GiftCardsRepository, rows: GiftCardRow[]): Promise<GiftCardView[]> {
  return Promise.all(rows.map(async (row) => cardView(row, await repo.imagesOf(row.id))));
}

export function tradeCardView(row: GiftCardRow, images: GiftCardImageRow[], code: string | null): TradeGiftCardView {
  return {
    ...cardView(row, images),
    code,
    revealedAt: row.revealedAt === null ? null : Math.floor(row.revealedAt / 1000),
  };
}

/** The cards' total in minor units. */
export const totalOf = (rows: GiftCardRow[]) => rows.reduce((sum, row) => sum + row.valueMinor, 0);
