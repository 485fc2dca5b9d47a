import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import { TRADE_ATTACHMENT_MAX_BYTES } from '../../src/lib/shared/trade-attachments.ts';
import { GIFT_CARD_MAX_IMAGES } from '../../src/lib/shared/views/gift-cards.ts';
import { type AppEnv, clientInfo, personContextOf, signedIn } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { privateFileHeaders } from '../http/private-file.ts';
import { decimalAmount, referenceId, requiredText as text, validate, yesNo } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { AppError, invalidInput } from '../services/errors.ts';
import { MAX_CARDS_PER_TRADE } from '../services/gift-cards/attach.ts';
import { pictureTooLarge } from '../services/gift-cards/images.ts';

// Gift cards (spec section 7 "Gift cards", issue 18; docs/gift-cards.md):
//   POST   /rest/v1/gift-cards                     code, value, fiat_currency_id, payment_method_id, receipt, images, type → data.id
//   GET    /rest/v1/gift-cards                     the person's cards ("My gift cards"), no codes
//   DELETE /rest/v1/gift-cards/{id}                a free card of one's own
//   POST   /rest/v1/gift-cards/images              multipart `file`: a picture for the card about to be saved → data.id
//   GET    /rest/v1/gift-cards/unused/{offerHash}  ?fiatAmount=: free cards of the offer's brand and currency
//   POST   /rest/v1/gift-cards/trade/start         offer_hash, fiat_currency_id, payment_method_id, amount_fiat,
//                                                  amount_btc, gift_card_ids, original_data → message, chatUrl
//   GET    /rest/v1/trade/{id}/gift-cards          the gift code check of a trade
//   POST   /rest/v1/trade/{id}/gift-cards          gift_card_ids: the buyer adds saved cards before marking paid
//   DELETE /rest/v1/trade/{id}/gift-cards/{cardId} the buyer removes a card the seller has not opened
//   POST   /rest/v1/trade/{id}/gift-cards/{cardId}/reveal  the seller (or a moderator in a dispute) opens a code
//   POST   /rest/v1/trade/{id}/gift-cards/return   the seller gives the cards back: none was redeemed
//   GET    /uploads/gift-cards/{gci_…}             a picture, to its owner, the trade's seller and moderators

const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const cardId = v.pipe(v.string('must be a gift card id'), v.regex(/^gcd_[0-9A-Za-z]{16}$/, 'must be a gift card id'));
const imageId = v.pipe(v.string('must be an image id'), v.regex(/^gci_[0-9A-Za-z]{16}$/, 'must be an image id'));
const offerHash = v.pipe(text(32), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be an offer hash'));
const cardIds = v.pipe(
  v.array(cardId, 'must be a list of gift card ids'),
  v.minLength(1, 'must list at least one gift card'),
  v.maxLength(MAX_CARDS_PER_TRADE, `must list at most ${MAX_CARDS_PER_TRADE} gift cards`),
  v.check((ids) => new Set(ids).size === ids.length, 'must not list a card twice'),
);

const SaveBody = v.object({
  // Spaces and dashes as printed; the service checks what is left.
  code: v.pipe(v.string('must be text'), v.maxLength(200, 'is too long')),
  value: decimalAmount,
  fiat_currency_id: referenceId,
  payment_method_id: referenceId,
  receipt: v.optional(yesNo, false),
  images: v.optional(
    v.pipe(v.array(imageId, 'must be a list of image ids'), v.maxLength(GIFT_CARD_MAX_IMAGES, 'has too many images')),
    [],
  ),
  type: v.picklist(['physical', 'ecard'], 'must be physical or ecard'),
});
const StartBody = v.object({
  offer_hash: offerHash,
  fiat_currency_id: referenceId,
  payment_method_id: referenceId,
  amount_fiat: decimalAmount,
  amount_btc: decimalAmount,
  gift_card_ids: cardIds,
  original_data: text(2000),
  payer_name: v.optional(text(100)),
});
const AddBody = v.object({ gift_card_ids: cardIds });
const CardParam = v.object({ id: cardId });
const OfferParam = v.object({ offerHash });
const UnusedQuery = v.object({ fiatAmount: v.optional(v.pipe(v.string(), v.maxLength(24, 'is too long'))) });
const TradeParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
const TradeCardParam = v.object({ ...TradeParam.entries, cardId });

type GiftCardsService = Services['giftCards'];

export function giftCardRoutes(services: Services, { trustProxy }: { trustProxy: boolean }) {
  const app = new Hono<AppEnv>()
    .use('/rest/v1/gift-cards', signedIn)
    .use('/rest/v1/gift-cards/*', signedIn)
    .use('/rest/v1/trade/:id/gift-cards', signedIn)
    .use('/rest/v1/trade/:id/gift-cards/*', signedIn)
    .use('/uploads/gift-cards/*', signedIn);
  myCardsRoutes(app, services.giftCards);
  tradeCardsRoutes(app, services.giftCards, trustProxy);
  return app;
}

/** "My gift cards": save, list, delete, pictures. */
function myCardsRoutes(app: Hono<AppEnv>, giftCards: GiftCardsService) {
  app
    .post('/rest/v1/gift-cards', validate('json', SaveBody), async (c) => {
      const card = await giftCards.save(personContextOf(c), c.req.valid('json'));
      return c.json({ data: card }, 201);
    })
    .get('/rest/v1/gift-cards', async (c) => c.json({ data: await giftCards.mine(personContextOf(c)) }))
    .delete('/rest/v1/gift-cards/:id', validate('param', CardParam), async (c) =>
      c.json(await giftCards.remove(personContextOf(c), { id: c.req.valid('param').id })),
    )
    .post(
      '/rest/v1/gift-cards/images',
      bodyLimit({
        maxSize: TRADE_ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
        onError: () => {
          throw pictureTooLarge();
        },
      }),
      async (c) => {
        if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the picture as multipart/form-data in the field "file".');
        }
        const file = (await c.req.formData().catch(() => undefined))?.get('file');
        if (!file || typeof file === 'string') {
          throw invalidInput([{ field: 'file', message: 'is required', key: 'gift_card_image_required' }]);
        }
        const bytes = new Uint8Array(await file.arrayBuffer());
        return c.json({ data: await giftCards.uploadImage(personContextOf(c), { bytes }) }, 201);
      },
    )
    .get('/uploads/gift-cards/:publicId', async (c) => {
      const file = await giftCards.readImage(personContextOf(c), { id: c.req.param('publicId') });
      return c.body(new Uint8Array(file.bytes), 200, privateFileHeaders(file.contentType, file.publicId));
    });
}

/** Cards and trades: the cards an offer takes, the start, and the gift code check. */
function tradeCardsRoutes(app: Hono<AppEnv>, giftCards: GiftCardsService, trustProxy: boolean) {
  app
    .get(
      '/rest/v1/gift-cards/unused/:offerHash',
      validate('param', OfferParam),
      validate('query', UnusedQuery),
      async (c) =>
        c.json(
          await giftCards.unusedForOffer(personContextOf(c), {
            offerHash: c.req.valid('param').offerHash,
            fiatAmount: c.req.valid('query').fiatAmount,
            locale: requestLocale(c),
          }),
        ),
    )
    .post('/rest/v1/gift-cards/trade/start', validate('json', StartBody), async (c) => {
      const started = await giftCards.startTrade(personContextOf(c), {
        ...c.req.valid('json'),
        locale: requestLocale(c),
        ip: clientInfo(c, trustProxy).ip,
      });
      return c.json(started, 201);
    })
    .get('/rest/v1/trade/:id/gift-cards', validate('param', TradeParam), async (c) =>
      c.json({ data: await giftCards.check(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post('/rest/v1/trade/:id/gift-cards', validate('param', TradeParam), validate('json', AddBody), async (c) =>
      c.json({
        data: await giftCards.addToTrade(personContextOf(c), {
          hash: c.req.valid('param').id,
          gift_card_ids: c.req.valid('json').gift_card_ids,
        }),
      }),
    )
    .post('/rest/v1/trade/:id/gift-cards/return', validate('param', TradeParam), async (c) =>
      c.json({ data: await giftCards.returnCards(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .delete('/rest/v1/trade/:id/gift-cards/:cardId', validate('param', TradeCardParam), async (c) => {
      const { id, cardId: card } = c.req.valid('param');
      return c.json({ data: await giftCards.removeFromTrade(personContextOf(c), { hash: id, id: card }) });
    })
    .post('/rest/v1/trade/:id/gift-cards/:cardId/reveal', validate('param', TradeCardParam), async (c) => {
      const { id, cardId: card } = c.req.valid('param');
      return c.json({ data: await giftCards.reveal(personContextOf(c), { hash: id, id: card }) });
    });
}
