import { bindVerb, type PersonContext } from '../context.ts';
import type { GiftCardsDeps } from './deps.ts';
import { readImage, sweepImages, uploadImage } from './images.ts';
import { addToTrade, giftCodeCheck, removeFromTrade } from './in-trade.ts';
import { myCards, unusedForOffer } from './list.ts';
import { removeCard } from './remove.ts';
import { returnCards, revealCode } from './reveal.ts';
import { saveCard } from './save.ts';
import { startGiftTrade } from './trade-start.ts';

// Gift cards (issue 18, docs/gift-cards.md): "My gift cards" (save, list, delete, pictures),
// the cards a gift-card offer takes, the start of a trade paid with them, and the gift code check
// in the trade (add, remove, reveal, give back). The transitions' effect on the cards is
// settlement.ts, which the trades service calls inside its own transactions. One verb per file.

export type { GiftCardsDeps } from './deps.ts';
export { createGiftCardSettlement } from './settlement.ts';

export function createGiftCardsService(deps: GiftCardsDeps) {
  return {
    save: bindVerb(deps, saveCard),
    mine: (ctx: PersonContext) => myCards(deps, ctx),
    remove: bindVerb(deps, removeCard),
    uploadImage: bindVerb(deps, uploadImage),
    readImage: bindVerb(deps, readImage),
    /** Images no card took within a day; the hourly sweep calls it. */
    sweepImages: () => sweepImages(deps),
    unusedForOffer: bindVerb(deps, unusedForOffer),
    startTrade: bindVerb(deps, startGiftTrade),
    check: bindVerb(deps, giftCodeCheck),
    addToTrade: bindVerb(deps, addToTrade),
    removeFromTrade: bindVerb(deps, removeFromTrade),
    reveal: bindVerb(deps, revealCode),
    returnCards: bindVerb(deps, returnCards),
  };
}

export type GiftCardsService = ReturnType<typeof createGiftCardsService>;
