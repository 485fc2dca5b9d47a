import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCodeVault } from '../../server/services/gift-cards/vault.ts';
import { TRADE_ATTACHMENT_MAX_BYTES } from '../../src/lib/shared/trade-attachments.ts';
import { GIFT_CARD_MAX_IMAGES, GIFT_CARD_MAX_VALUE } from '../../src/lib/shared/views/gift-cards.ts';
import { errorOf } from '../support/api-errors.ts';
import { cardPictures, GIFT_BRAND, giftCardFixtures, pictureForm } from '../support/gift-card-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import type { Browser } from '../support/trade-fixtures.ts';

// "My gift cards" over HTTP (issue 18): save with every field checked, pictures (upload, read,
// who may see them), the list, delete, and the free cards a gift-card offer takes. The trades
// paid with cards are tests/api/gift-cards-trade.test.ts.

let t: TestApp;
let g: ReturnType<typeof giftCardFixtures>;
let buyer: Browser;
let vendor: Browser;
let stranger: Browser;
let pictures: Awaited<ReturnType<typeof cardPictures>>;

beforeAll(async () => {
  pictures = await cardPictures();
});
beforeEach(async () => {
  t = await createTestApp();
  g = giftCardFixtures(t);
  ({ buyer, vendor, stranger } = await g.giftMarket());
});
afterEach(() => t?.close());

const detailsOf = async (res: Response) => (await errorOf(res)).details ?? [];

describe('POST /rest/v1/gift-cards', () => {
  it('saves a card free, without its code in the answer', async () => {
    const body = await g.cardBody({ value: '25.50', receipt: true, type: 'physical' });
    const res = await buyer.post('/rest/v1/gift-cards', body);
    expect(res.status).toBe(201);
    const text = await res.clone().text();
    const card = (await res.json()).data;
    expect(card).toMatchObject({
      id: expect.stringMatching(/^gcd_[0-9A-Za-z]{16}$/),
      value: 25.5,
      fiatCurrency: { code: 'USD' },
      paymentMethod: { slug: GIFT_BRAND },
      receipt: true,
      type: 'physical',
      state: 'free',
      images: [],
      tradeHash: null,
    });
    expect(text).not.toContain(body.code);
    expect(await g.eventsOf(card.id)).toEqual([['saved', 'owner']]);
  });

  it('names every wrong field at once', async () => {
    const res = await buyer.post('/rest/v1/gift-cards', {
      code: 'a!',
      value: '0',
      fiat_currency_id: 999_999,
      payment_method_id: 999_999,
      type: 'physical',
    });
    expect(res.status).toBe(400);
    const details = await detailsOf(res);
    expect(Object.fromEntries(details.map((d) => [d.field, d.key]))).toEqual({
      code: 'gift_card_code_characters',
      payment_method_id: 'gift_card_brand_invalid',
      fiat_currency_id: 'gift_card_currency_invalid',
    });
  });

  it('checks each field', async () => {
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [{ code: '' }, 'code', 'gift_card_code_required'],
      [{ code: ' - - ' }, 'code', 'gift_card_code_required'],
      [{ code: 'AB1' }, 'code', 'gift_card_code_length'],
      [{ code: 'A'.repeat(65) }, 'code', 'gift_card_code_length'],
      [{ code: 'ABCD<1234>' }, 'code', 'gift_card_code_characters'],
      [{ code: 'A'.repeat(201) }, 'code', undefined],
      [{ code: 1234 }, 'code', undefined],
      [{ value: '0' }, 'value', 'gift_card_value_invalid'],
      [{ value: '-5' }, 'value', undefined],
      [{ value: '10.123' }, 'value', 'gift_card_value_invalid'],
      [{ value: String(GIFT_CARD_MAX_VALUE + 1) }, 'value', 'gift_card_value_invalid'],
      [{ value: 'ten' }, 'value', undefined],
      [{ fiat_currency_id: 'usd' }, 'fiat_currency_id', undefined],
      [{ fiat_currency_id: 0 }, 'fiat_currency_id', undefined],
      [{ payment_method_id: 1.5 }, 'payment_method_id', undefined],
      [{ receipt: 'maybe' }, 'receipt', undefined],
      [{ images: 'gci_x' }, 'images', undefined],
      [{ images: ['card.jpg'] }, 'images', undefined],
      [{ type: 'plastic' }, 'type', undefined],
      [{ type: undefined }, 'type', undefined],
    ];
    for (const [overrides, field, key] of cases) {
      const res = await buyer.post('/rest/v1/gift-cards', await g.cardBody(overrides));
      const label = JSON.stringify(overrides);
      expect(res.status, label).toBe(400);
      const details = await detailsOf(res);
      const issue = details.find((d) => d.field === field || d.field.startsWith(`${field}.`));
      expect(issue, `${label}: ${JSON.stringify(details)}`).toBeDefined();
      if (key) expect(issue?.key, label).toBe(key);
    }
    expect(await g.myCards(buyer)).toEqual([]);
  });

  it('refuses a brand outside the gift-cards group and a currency the brand is not sold in', async () => {
    const bank = await buyer.post(
      '/rest/v1/gift-cards',
      await g.cardBody({ payment_method_id: await g.brandId('bank-transfer') }),
    );
    expect(bank.status).toBe(400);
    expect(await detailsOf(bank)).toEqual([
      expect.objectContaining({ field: 'payment_method_id', key: 'gift_card_brand_invalid' }),
    ]);
    const walmartInEuro = await buyer.post(
      '/rest/v1/gift-cards',
      await g.cardBody({
        payment_method_id: await g.brandId('walmart-gift-card'),
        fiat_currency_id: await g.currencyId('EUR'),
      }),
    );
    expect(walmartInEuro.status).toBe(400);
    expect(await detailsOf(walmartInEuro)).toEqual([
      expect.objectContaining({ field: 'fiat_currency_id', key: 'gift_card_currency_not_for_brand' }),
    ]);
    // A brand sold everywhere takes any currency.
    await g.saveCard(buyer, { fiat_currency_id: await g.currencyId('EUR') });
  });

  it('refuses a code saved before, by anyone, however it is written', async () => {
    await g.saveCard(buyer, { code: 'ab12-cd34' });
    for (const [who, code] of [
      [buyer, 'AB12CD34'],
      [stranger, ' ab12 cd34 '],
      [buyer, 'AB12-CD34'],
    ] as const) {
      const res = await who.post('/rest/v1/gift-cards', await g.cardBody({ code }));
      expect(res.status, code).toBe(409);
      expect(await errorOf(res)).toMatchObject({ code: 'GIFT_CARD_DUPLICATE', field: 'code' });
    }
    // Two saves of one code at once: one card.
    const both = await Promise.all(
      [buyer, stranger].map(async (who) => who.post('/rest/v1/gift-cards', await g.cardBody({ code: 'RACE-4242' }))),
    );
    expect(both.map((res) => res.status).sort()).toEqual([201, 409]);
  });

  it('takes up to four of one’s own pictures, never more and never someone else’s', async () => {
    const mine = [];
    for (let i = 0; i <= GIFT_CARD_MAX_IMAGES; i++) mine.push((await g.uploadPicture(buyer, pictures.jpeg)).id);
    const tooMany = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ images: mine }));
    expect(tooMany.status).toBe(400);
    expect((await detailsOf(tooMany)).map((d) => d.field)).toEqual(['images']);
    const twice = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ images: [mine[0], mine[0]] }));
    expect(twice.status).toBe(400);

    const theirs = await g.uploadPicture(stranger, pictures.jpeg);
    const foreign = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ images: [mine[0], theirs.id] }));
    expect(foreign.status).toBe(400);
    expect(await detailsOf(foreign)).toEqual([
      expect.objectContaining({ field: 'images', key: 'gift_card_image_unknown' }),
    ]);
    const unknown = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ images: ['gci_AAAAAAAAAAAAAAAA'] }));
    expect(unknown.status).toBe(400);
    // The refused saves left nothing: no card, the pictures still free for the next one.
    expect(await g.myCards(buyer)).toEqual([]);

    const card = await g.saveCard(buyer, { images: mine.slice(0, GIFT_CARD_MAX_IMAGES) });
    expect(card.images.map((i) => i.id)).toEqual(mine.slice(0, GIFT_CARD_MAX_IMAGES));
    // A picture another card took is taken.
    const again = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ images: [mine[0]] }));
    expect(again.status).toBe(400);
  });

  it('is for signed-in people', async () => {
    expect((await t.send('/rest/v1/gift-cards', { method: 'POST', json: await g.cardBody() })).status).toBe(401);
    expect((await t.send('/rest/v1/gift-cards')).status).toBe(401);
  });
});

describe('pictures', () => {
  const upload = (b: Browser, body: FormData | string, headers: Record<string, string> = {}) =>
    b.send('/rest/v1/gift-cards/images', { method: 'POST', body, headers });
  const storedFiles = () => readdirSync(join(t.uploadsDir, 'gift-cards'));

  it('takes JPEG and PNG, re-encoded as JPEG without the camera’s metadata', async () => {
    for (const bytes of [pictures.jpeg, pictures.png]) {
      const image = await g.uploadPicture(buyer, bytes);
      expect(image).toEqual({ id: expect.stringMatching(/^gci_/), url: `/uploads/gift-cards/${image.id}` });
      const res = await buyer.get(image.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toMatch(/private|no-store/);
      const served = Buffer.from(await res.arrayBuffer());
      expect(served.equals(bytes)).toBe(false);
      expect((await sharp(served).metadata()).exif).toBeUndefined();
      expect(served.includes('SecretCam')).toBe(false);
    }
    expect(storedFiles()).toHaveLength(2);
  });

  it('refuses other types (415), large files (413), a missing file and visitors (401)', async () => {
    const text = await upload(buyer, pictureForm(Buffer.from('just text, no picture'), 'image/jpeg'));
    expect(text.status).toBe(415);
    expect(await errorOf(text)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'file' });
    const gif = await upload(buyer, pictureForm(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif'));
    expect(gif.status).toBe(415);
    const json = await buyer.post('/rest/v1/gift-cards/images', { file: 'x' });
    expect(json.status).toBe(415);
    const big = await upload(buyer, pictureForm(new Uint8Array(TRADE_ATTACHMENT_MAX_BYTES + 200 * 1024)));
    expect(big.status).toBe(413);
    expect(await errorOf(big)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file' });
    const tiny = await upload(
      buyer,
      pictureForm(
        await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
        'image/png',
      ),
    );
    expect(tiny.status).toBe(400);
    expect(await detailsOf(tiny)).toEqual([expect.objectContaining({ field: 'file' })]);
    const none = new FormData();
    none.append('other', 'x');
    const missing = await upload(buyer, none);
    expect(missing.status).toBe(400);
    expect(await detailsOf(missing)).toEqual([
      expect.objectContaining({ field: 'file', key: 'gift_card_image_required' }),
    ]);
    const visitor = await t.send('/rest/v1/gift-cards/images', { method: 'POST', body: pictureForm(pictures.jpeg) });
    expect(visitor.status).toBe(401);
    expect(readdirSync(t.uploadsDir)).not.toContain('gift-cards');
  });

  it('shows a picture to its owner only, and 404 for anything else', async () => {
    const image = await g.uploadPicture(buyer, pictures.jpeg);
    const card = await g.saveCard(buyer, { images: [image.id] });
    expect(card.images).toEqual([image]);
    expect((await buyer.get(image.url)).status).toBe(200);
    for (const other of [stranger, vendor]) {
      const res = await other.get(image.url);
      expect(res.status).toBe(404);
      expect(await errorOf(res)).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await buyer.get('/uploads/gift-cards/gci_AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await t.send(image.url)).status).toBe(401);
  });

  it('sweeps pictures no card took within a day, and keeps a card’s', async () => {
    const kept = await g.uploadPicture(buyer, pictures.jpeg);
    await g.saveCard(buyer, { images: [kept.id] });
    const left = await g.uploadPicture(buyer, pictures.png);
    expect(await t.services.giftCards.sweepImages()).toBe(0);
    t.clock.now += 25 * 60 * 60_000;
    expect(await t.services.giftCards.sweepImages()).toBe(1);
    expect((await buyer.get(left.url)).status).toBe(404);
    expect((await buyer.get(kept.url)).status).toBe(200);
    expect(storedFiles()).toHaveLength(1);
  });
});

describe('GET /rest/v1/gift-cards and DELETE /rest/v1/gift-cards/{id}', () => {
  it('lists one’s own cards, newest first, without codes', async () => {
    const first = await g.cardBody({ value: 10 });
    const second = await g.cardBody({ value: 20, type: 'physical' });
    await buyer.post('/rest/v1/gift-cards', first);
    await buyer.post('/rest/v1/gift-cards', second);
    await g.saveCard(stranger);
    const res = await buyer.get('/rest/v1/gift-cards');
    const text = await res.clone().text();
    const cards = (await res.json()).data as { value: number; state: string }[];
    expect(cards.map((c) => [c.value, c.state])).toEqual([
      [20, 'free'],
      [10, 'free'],
    ]);
    expect(text).not.toContain(first.code);
    expect(text).not.toContain(second.code);
    expect(text).not.toMatch(/code_?sealed|fingerprint/i);
  });

  it('deletes a free card of one’s own: others get 404, a deleted one is 404, its code may be saved again', async () => {
    const image = await g.uploadPicture(buyer, pictures.jpeg);
    const body = await g.cardBody({ images: [image.id] });
    const card = (await (await buyer.post('/rest/v1/gift-cards', body)).json()).data as { id: string };
    const path = `/rest/v1/gift-cards/${card.id}`;
    const foreign = await stranger.send(path, { method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.send(path, { method: 'DELETE' })).status).toBe(401);
    const gone = await buyer.send(path, { method: 'DELETE' });
    expect(gone.status).toBe(200);
    expect(await gone.json()).toEqual({ success: true });
    expect((await buyer.send(path, { method: 'DELETE' })).status).toBe(404);
    expect((await buyer.send('/rest/v1/gift-cards/gcd_AAAAAAAAAAAAAAAA', { method: 'DELETE' })).status).toBe(404);
    expect((await buyer.send('/rest/v1/gift-cards/not-an-id', { method: 'DELETE' })).status).toBe(400);
    expect(await g.myCards(buyer)).toEqual([]);
    expect((await buyer.get(image.url)).status).toBe(404);
    expect(readdirSync(join(t.uploadsDir, 'gift-cards'))).toEqual([]);
    // The row keeps its trail but nothing of the code.
    const row = await t.db.sql.get<{ sealed: string; fingerprint: string | null; state: string }>(
      'SELECT code_sealed AS sealed, code_fingerprint AS fingerprint, state FROM gift_cards WHERE public_id = ?',
      [card.id],
    );
    expect(row).toEqual({ sealed: '', fingerprint: null, state: 'deleted' });
    expect(await g.eventsOf(card.id)).toEqual([
      ['saved', 'owner'],
      ['deleted', 'owner'],
    ]);
    await g.saveCard(stranger, { code: body.code });
  });

  it('refuses to delete a card in a trade (409)', async () => {
    const offer = await g.giftOffer(vendor);
    const [id] = await g.saveCards(buyer, [100]);
    await g.startGiftTrade(buyer, offer, [id as string]);
    const res = await buyer.send(`/rest/v1/gift-cards/${id}`, { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({ code: 'GIFT_CARD_UNAVAILABLE' });
    expect(await g.stateOf(buyer, id as string)).toBe('in_use');
  });
});

describe('GET /rest/v1/gift-cards/unused/{offerHash}', () => {
  it('lists the free cards of the offer’s brand and currency, and whether some add up to the amount', async () => {
    const offer = await g.giftOffer(vendor);
    const [sixty, forty] = await g.saveCards(buyer, [60, 40]);
    await g.saveCard(buyer, { value: 30, payment_method_id: await g.brandId('apple-gift-card') });
    await g.saveCard(buyer, { value: 30, fiat_currency_id: await g.currencyId('EUR') });
    await g.saveCard(stranger, { value: 100 });
    const unused = async (query: string) => {
      const res = await buyer.get(`/rest/v1/gift-cards/unused/${offer.hash}${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { data: { id: string }[]; meta: Record<string, unknown> };
    };
    const covered = await unused('?fiatAmount=100');
    expect(covered.data.map((c) => c.id)).toEqual([sixty, forty]);
    expect(covered.meta).toEqual({
      fiatAmount: 100,
      total: 100,
      currency: 'USD',
      paymentMethod: expect.any(String),
      covers: true,
    });
    expect((await unused('?fiatAmount=60')).meta.covers).toBe(true);
    expect((await unused('?fiatAmount=70')).meta).toMatchObject({ fiatAmount: 70, covers: false });
    expect((await unused('')).meta).toMatchObject({ fiatAmount: null, covers: false });
    const bad = await buyer.get(`/rest/v1/gift-cards/unused/${offer.hash}?fiatAmount=abc`);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION' });
  });

  it('refuses an offer not paid with gift cards, an unknown offer and visitors', async () => {
    const bank = await g.createOffer(vendor);
    const res = await buyer.get(`/rest/v1/gift-cards/unused/${bank.hash}?fiatAmount=100`);
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'FORBIDDEN' });
    expect((await buyer.get('/rest/v1/gift-cards/unused/zzzzzzzzzzzz')).status).toBe(404);
    const offer = await g.giftOffer(vendor);
    expect((await t.send(`/rest/v1/gift-cards/unused/${offer.hash}`)).status).toBe(401);
  });
});

describe('the code at rest', () => {
  it('is sealed: no plain code in the row, and a sealed code opens only under its own card', async () => {
    const body = await g.cardBody({ code: 'PLAIN-TEXT-CODE-77' });
    const card = (await (await buyer.post('/rest/v1/gift-cards', body)).json()).data as { id: string };
    const row = await t.db.sql.get<{ sealed: string; fingerprint: string }>(
      'SELECT code_sealed AS sealed, code_fingerprint AS fingerprint FROM gift_cards WHERE public_id = ?',
      [card.id],
    );
    expect(row?.sealed).toMatch(/^v1\./);
    expect(row?.sealed).not.toContain('PLAIN');
    expect(row?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // The test app runs with the development key.
    const vault = createCodeVault();
    expect(vault.open(row?.sealed as string, card.id)).toBe('PLAIN-TEXT-CODE-77');
    expect(() => vault.open(row?.sealed as string, 'gcd_AAAAAAAAAAAAAAAA')).toThrow();
    expect(() => createCodeVault('00'.repeat(32)).open(row?.sealed as string, card.id)).toThrow();
    expect(vault.fingerprint('plain text-code 77')).toBe(row?.fingerprint);
  });
});
