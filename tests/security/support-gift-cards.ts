import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { fixedPriceOfferBody } from '../support/trade-fixtures.ts';

// The gift-card part of the security suite's world (issue 18), built by support-fixtures.ts: A's
// gift-card offer, B's cards (one free to delete, one kept for a start), a picture on a card in a
// trade, and one trade per verb on a trade's cards, each in the state its sample needs. B owns
// the cards and pays with them; A sells and opens the codes.

/**
 * Each trade is for 10 USD: A's verification level allows little volume, and the rest of the
 * world's trades take most of it.
 */
const FIAT = 10;

export interface GiftCardWorld {
  offer: { hash: string; originalData: string; fiatPricePerCrypto: number };
  brandId: number;
  currencyId: number;
  /** B's free card, for the delete sample. */
  disposable: string;
  /** B's free card of the trades' amount, for the start sample. */
  forStart: string;
  /** B's picture on the 6 USD card in `trades.main`. */
  image: string;
  /** A code that is never revealed: no answer to anyone may carry it. */
  secretCode: string;
  trades: {
    /** Active, the 6 USD card in it; `spare` (4 USD, removed) may be added back. */
    main: string;
    spare: string;
    /** Active with a 6 and a 4 USD card; B may remove `removable`. */
    forRemove: string;
    removable: string;
    /** Paid: A may open `revealable`. */
    forReveal: string;
    revealable: string;
    /** Paid: A may give the cards back. */
    forReturn: string;
  };
}

type Caller = {
  post: (path: string, json?: unknown) => Promise<Response>;
  form: (path: string, body: FormData) => Promise<Response>;
  send: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
};

/** The start of a FIAT USD trade on the world's offer, paid with `ids` (the card chooser's request). */
export const giftStartBody = (
  { offer, brandId, currencyId }: Pick<GiftCardWorld, 'offer' | 'brandId' | 'currencyId'>,
  ids: string[],
) => ({
  offer_hash: offer.hash,
  fiat_currency_id: currencyId,
  payment_method_id: brandId,
  amount_fiat: String(FIAT),
  amount_btc: (FIAT / offer.fiatPricePerCrypto).toFixed(8),
  gift_card_ids: ids,
  original_data: offer.originalData,
});

async function dataOf<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return ((await answer.json()) as { data: T }).data;
}

export async function buildGiftCardWorld(t: TestApp, A: Caller, B: Caller, jpeg: Buffer): Promise<GiftCardWorld> {
  const idOf = async (query: string, value: string) => Number((await t.db.sql.get<{ id: number }>(query, [value]))?.id);
  const brandId = await idOf('SELECT id FROM payment_methods WHERE slug = ?', 'amazon-gift-card');
  const currencyId = await idOf('SELECT id FROM fiat_currencies WHERE code = ?', 'USD');
  const unique = crypto.randomUUID().slice(0, 8).toUpperCase();
  let made = 0;
  const save = async (value: number, images: string[] = [], code = `SEC-${unique}-${++made}`) =>
    (
      await dataOf<{ id: string }>(
        B.post('/rest/v1/gift-cards', {
          code,
          value,
          fiat_currency_id: currencyId,
          payment_method_id: brandId,
          receipt: false,
          images,
          type: 'ecard',
        }),
        201,
      )
    ).id;

  const offer = await dataOf<GiftCardWorld['offer']>(
    A.post('/rest/v1/offers', fixedPriceOfferBody({ payment_method: 'amazon-gift-card', fiat_min: '5' })),
    201,
  );
  const started = async (ids: string[]) =>
    (
      await dataOf<{ hash: string }>(
        B.post('/rest/v1/gift-cards/trade/start', giftStartBody({ offer, brandId, currencyId }, ids)),
        201,
      )
    ).hash;

  const picture = new FormData();
  picture.append('file', new File([new Uint8Array(jpeg)], 'card.jpg', { type: 'image/jpeg' }));
  const image = (await dataOf<{ id: string }>(B.form('/rest/v1/gift-cards/images', picture), 201)).id;
  const secretCode = `NEVER-SHOWN-${unique}`;
  const kept = await save(6, [image], secretCode);
  const spare = await save(4);
  const main = await started([kept, spare]);
  await dataOf(B.send(`/rest/v1/trade/${main}/gift-cards/${spare}`, { method: 'DELETE' }));

  const removable = await save(4);
  const forRemove = await started([await save(6), removable]);
  const revealable = await save(FIAT);
  const forReveal = await started([revealable]);
  await dataOf(B.post(`/rest/v1/trade/${forReveal}/paid`));
  const forReturn = await started([await save(FIAT)]);
  await dataOf(B.post(`/rest/v1/trade/${forReturn}/paid`));

  return {
    offer,
    brandId,
    currencyId,
    disposable: await save(25),
    forStart: await save(FIAT),
    image,
    secretCode,
    trades: { main, spare, forRemove, removable, forReveal, revealable, forReturn },
  };
}
