import type { Services } from '../../server/services/container.ts';
import type { PersonContext } from '../../server/services/context.ts';
import type { OfferView } from '../../server/services/offers/offer-view.ts';
import { GIFT_CARD_KINDS, GIFT_CARD_MAX_VALUE } from '../../src/lib/shared/views/gift-cards.ts';
import type { Database } from '../database.ts';
import type { SeededRandom } from './random.ts';

// Gift cards in the demo market (issue 18): the demo buyers pay gift-card offers with cards they
// save first, vendors who buy bring theirs into the trade, sellers open every code before they
// release, and buyer@example.com keeps a few free cards to try a gift-card trade with. All
// through the gift-cards service, so every code is sealed like a real one.

/** At most this many cards in one demo trade; a larger amount is traded on another offer. */
const MAX_DEMO_CARDS = 4;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A code as printed on a card: four groups of four, from the seeded random (and so repeatable). */
function demoCode(random: SeededRandom): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 4 }, () => CODE_ALPHABET[random.int(0, CODE_ALPHABET.length - 1)]).join(''),
  );
  return groups.join('-');
}

/** Card values adding up to `amount` (major units, as text), each at most GIFT_CARD_MAX_VALUE; undefined when too many. */
export function cardValuesFor(amount: string, decimals: number): string[] | undefined {
  const factor = 10 ** decimals;
  let left = Math.round(Number(amount) * factor);
  const most = GIFT_CARD_MAX_VALUE * factor;
  const values: string[] = [];
  while (left > 0) {
    const value = Math.min(left, most);
    values.push((value / factor).toFixed(decimals));
    left -= value;
  }
  return values.length <= MAX_DEMO_CARDS ? values : undefined;
}

/** Saves cards of the offer's brand and currency worth `amount` for the person of `ctx`; their ids. */
export async function saveCardsFor(
  services: Services,
  random: SeededRandom,
  ctx: PersonContext,
  offer: OfferView,
  values: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const value of values) {
    const card = await services.giftCards.save(ctx, {
      code: demoCode(random),
      value,
      fiat_currency_id: offer.fiatCurrencyId,
      payment_method_id: offer.paymentMethodId,
      receipt: random.chance(0.6),
      images: [],
      type: random.pick(GIFT_CARD_KINDS),
    });
    ids.push(card.id);
  }
  return ids;
}

/** The seller opens every code of the trade, as they would before releasing. */
export async function revealEveryCode(services: Services, sellerCtx: PersonContext, hash: string): Promise<void> {
  const check = await services.giftCards.check(sellerCtx, { hash });
  for (const card of check.cards) await services.giftCards.reveal(sellerCtx, { hash, id: card.id });
}

/** The free cards buyer@example.com keeps: brand slug, currency, value. */
const DEMO_BUYER_CARDS: [string, string, string][] = [
  ['amazon-gift-card', 'USD', '50'],
  ['amazon-gift-card', 'USD', '100'],
  ['steam-wallet-gift-card', 'USD', '25'],
  ['google-play-gift-card', 'EUR', '50'],
];
const METHOD_ID = 'SELECT id FROM payment_methods WHERE slug = ?';
const CURRENCY_ID = 'SELECT id FROM fiat_currencies WHERE code = ?';

/** A few free cards for the demo buyer people sign in as, in the brands the demo market trades most. */
export async function giveDemoBuyerCards(
  database: Database,
  services: Services,
  random: SeededRandom,
  ctx: PersonContext,
): Promise<void> {
  for (const [slug, currency, value] of DEMO_BUYER_CARDS) {
    const method = await database.sql.get<{ id: number }>(METHOD_ID, [slug]);
    const fiat = await database.sql.get<{ id: number }>(CURRENCY_ID, [currency]);
    if (!method || !fiat) continue;
    await services.giftCards.save(ctx, {
      code: demoCode(random),
      value,
      fiat_currency_id: fiat.id,
      payment_method_id: method.id,
      receipt: true,
      images: [],
      type: 'ecard',
    });
  }
}
