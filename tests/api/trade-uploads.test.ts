import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { tradeChannel } from '../../server/realtime/channels.ts';
import { errorOf } from '../support/api-errors.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { type Browser, type TradeData, tradeFixtures } from '../support/trade-fixtures.ts';

// Trade files over HTTP: chat attachments by type (magic bytes, polyglots, size, pixel floods),
// by role (buyer, seller, stranger, moderator, moderator-only files), the blocked-by-opponent
// refusal, proofs for an offer's requirements with the owner's review and what the trade view
// makes of them, and the headers files are served with. The vendor sells; the buyer answered.

let t: TestApp;
let bus: EventBus;
let f: ReturnType<typeof tradeFixtures>;
let vendor: Browser;
let buyer: Browser;
let trade: TradeData;

const VENDOR = 'vendor@example.com';
const BUYER = 'buyer@example.com';
const MODERATOR = 'moderator@example.com';
const STRANGER = 'affiliate@example.com';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
const fixtures = {} as Record<'jpeg' | 'png', Buffer>;
beforeAll(async () => {
  fixtures.jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2c3e50' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Ada Lovelace' } })
    .toBuffer();
  fixtures.png = await sharp({ create: { width: 640, height: 480, channels: 4, background: '#2980b980' } })
    .png()
    .toBuffer();
});

/** A 1×1 PNG whose header claims `width`×`height`: tiny on disk, gigabytes once decoded. */
async function pixelFlood(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function form(files: { bytes: Uint8Array; name?: string; type?: string }[], isForModerator?: string) {
  const body = new FormData();
  for (const file of files) {
    body.append(
      'files',
      new File([new Uint8Array(file.bytes)], file.name ?? 'proof.jpg', { type: file.type ?? 'image/jpeg' }),
    );
  }
  if (isForModerator !== undefined) body.append('is_for_moderator', isForModerator);
  return body;
}

const attach = (b: Browser, files: Parameters<typeof form>[0], isForModerator?: string, hash = trade.hash) =>
  b.send(`/rest/v1/trade/${hash}/attachments`, { method: 'POST', body: form(files, isForModerator) });

interface Message {
  id: number;
  author: string;
  text: string;
  isForModerator: boolean;
  attachment: { id: string; url: string; contentType: string } | null;
}
interface Upload {
  id: string;
  requirementId: number;
  status: string;
  requirementStatus: string;
  resource: { url: string };
}

async function attached(b: Browser, files: Parameters<typeof form>[0], isForModerator?: string): Promise<Message[]> {
  const res = await attach(b, files, isForModerator);
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { success: boolean; data: Message[] };
  expect(body.success).toBe(true);
  return body.data;
}

const storedFiles = () => {
  try {
    return readdirSync(join(t.uploadsDir, 'trades'));
  } catch {
    return [];
  }
};
const attachmentRows = async () =>
  (await t.db.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM trade_attachments')) as { n: number };

beforeEach(async () => {
  bus = createInProcessBus();
  t = await createTestApp({ bus });
  f = tradeFixtures(t);
  ({ vendor, buyer } = await f.openMarket(1_000_000));
});
afterEach(() => t?.close());

async function plainTrade() {
  trade = await f.startTrade(buyer, await f.createOffer(vendor));
}

describe('POST /rest/v1/trade/{id}/attachments', () => {
  beforeEach(plainTrade);

  it('takes a PNG, a JPEG and a PDF in one request: re-encoded images, the PDF rebuilt, chat lines published', async () => {
    const events: { type: string; payload?: unknown }[] = [];
    bus.subscribe(tradeChannel(trade.hash), (event) => events.push(event));
    const messages = await attached(buyer, [
      { bytes: fixtures.png, name: 'a.png', type: 'image/png' },
      { bytes: fixtures.jpeg },
      { bytes: PDF, name: 'statement.pdf', type: 'application/pdf' },
    ]);
    expect(messages.map((m) => m.attachment?.contentType)).toEqual(['image/jpeg', 'image/jpeg', 'application/pdf']);
    expect(messages.every((m) => m.author === 'buyer' && !m.isForModerator)).toBe(true);
    expect(messages[0]?.attachment?.url).toMatch(/^\/uploads\/trades\/att_[0-9A-Za-z]{16}$/);
    expect(events.filter((e) => e.type === 'message')).toHaveLength(3);
    expect(storedFiles()).toHaveLength(3);

    // The seller reads them in the chat and fetches the files.
    const chat = (await (await vendor.get(`/rest/v1/trade/${trade.hash}/messages`)).json()).data as Message[];
    expect(chat.filter((m) => m.attachment).map((m) => m.attachment?.id)).toEqual(
      messages.map((m) => m.attachment?.id),
    );
    const image = await vendor.get(messages[1]?.attachment?.url as string);
    expect(image.status).toBe(200);
    const bytes = Buffer.from(await image.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined(); // the camera's EXIF did not survive
    const pdf = await vendor.get(messages[2]?.attachment?.url as string);
    expect((await PDFDocument.load(await pdf.arrayBuffer())).getPageCount()).toBe(1);
  });

  const refused: [string, () => Promise<Buffer> | Buffer, number, string][] = [
    ['a text file named .png', () => Buffer.from('just some text, not an image at all'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'a GIF',
      () =>
        sharp({ create: { width: 400, height: 400, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a PNG signature followed by HTML (polyglot)',
      () => Buffer.concat([fixtures.png.subarray(0, 8), Buffer.from('<html><body><script>')]),
      400,
      'ERROR_INPUT_VALIDATION',
    ],
    [
      'a PDF that is also a ZIP (polyglot)',
      () => Buffer.concat([PDF, Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])]),
      400,
      'ERROR_INPUT_VALIDATION',
    ],
    ['a pixel flood (100000×100000 in a few bytes)', () => pixelFlood(100_000, 100_000), 400, 'ERROR_INPUT_VALIDATION'],
    ['a file over 5 MB', () => Buffer.concat([fixtures.jpeg, Buffer.alloc(5 * 1024 * 1024)]), 413, 'PAYLOAD_TOO_LARGE'],
  ];
  for (const [what, bytes, status, code] of refused) {
    it(`refuses ${what} with ${status}, and a good file beside it is not kept either`, async () => {
      const res = await attach(buyer, [
        { bytes: fixtures.png, type: 'image/png' },
        { bytes: await bytes(), name: 'x.png', type: 'image/png' },
      ]);
      expect(res.status).toBe(status);
      const error = await errorOf(res);
      expect(error.code).toBe(code);
      expect(error.field).toBe('files');
      expect(error.message.length).toBeGreaterThan(10);
      expect(storedFiles()).toEqual([]);
      expect((await attachmentRows()).n).toBe(0);
    });
  }

  it('refuses more than 3 files, no files, and a body that is not multipart', async () => {
    const four = Array.from({ length: 4 }, () => ({ bytes: fixtures.png, type: 'image/png' }));
    expect((await errorOf(await attach(buyer, four))).field).toBe('files');
    expect((await attach(buyer, [])).status).toBe(400);
    const json = await buyer.post(`/rest/v1/trade/${trade.hash}/attachments`, { files: [] });
    expect(json.status).toBe(415);
    expect(storedFiles()).toEqual([]);
  });

  it('lets both parties and moderators send, strangers get 404, visitors 401', async () => {
    await attached(vendor, [{ bytes: fixtures.png }]);
    const moderator = await f.signedIn(MODERATOR);
    const [line] = await attached(moderator, [{ bytes: fixtures.png }]);
    // A moderator's file reaches the parties unless marked otherwise.
    expect(line?.isForModerator).toBe(false);
    expect((await buyer.get(line?.attachment?.url as string)).status).toBe(200);
    const stranger = await f.signedIn(STRANGER);
    expect((await attach(stranger, [{ bytes: fixtures.png }])).status).toBe(404);
    expect((await stranger.get(line?.attachment?.url as string)).status).toBe(404);
    const visitor = await t.send(`/rest/v1/trade/${trade.hash}/attachments`, {
      method: 'POST',
      body: form([{ bytes: fixtures.png }]),
    });
    expect(visitor.status).toBe(401);
    expect((await t.send(line?.attachment?.url as string)).status).toBe(401);
  });

  it('keeps a party’s moderator-only file from the other party, on the channel and in the chat', async () => {
    const events: { type: string }[] = [];
    bus.subscribe(tradeChannel(trade.hash), (event) => events.push(event));
    const [line] = await attached(buyer, [{ bytes: fixtures.png }], '1');
    expect(line?.isForModerator).toBe(true);
    expect(events).toEqual([]);
    const url = line?.attachment?.url as string;
    expect((await vendor.get(url)).status).toBe(404);
    expect((await buyer.get(url)).status).toBe(200);
    const moderator = await f.signedIn(MODERATOR);
    expect((await moderator.get(url)).status).toBe(200);
    const sellerChat = (await (await vendor.get(`/rest/v1/trade/${trade.hash}/messages`)).json()).data as Message[];
    expect(sellerChat.some((m) => m.attachment)).toBe(false);
    const moderatorChat = (await (await moderator.get(`/rest/v1/trade/${trade.hash}/messages`)).json())
      .data as Message[];
    expect(moderatorChat.some((m) => m.attachment?.url === url)).toBe(true);
  });

  it('refuses with reason blocked_by_opponent when the opponent blocked the uploader', async () => {
    await f.sql(
      "INSERT INTO user_trust (user_id, other_id, kind, created_at) VALUES (?, ?, 'blocked', 0)",
      await f.userId(VENDOR),
      await f.userId(BUYER),
    );
    const res = await attach(buyer, [{ bytes: fixtures.png }]);
    expect(res.status).toBe(403);
    const error = await errorOf(res);
    expect(error.code).toBe('FORBIDDEN');
    expect(error.meta).toEqual({ reason: 'blocked_by_opponent' });
    expect(storedFiles()).toEqual([]);
    // The one who blocked may still send.
    await attached(vendor, [{ bytes: fixtures.png }]);
  });

  it('serves images inline and PDFs as downloads, typed, unsniffable, sandboxed, privately cached', async () => {
    const [image, pdf] = await attached(buyer, [{ bytes: fixtures.png }, { bytes: PDF }]);
    const imageRes = await vendor.get(image?.attachment?.url as string);
    expect(imageRes.headers.get('content-type')).toBe('image/jpeg');
    expect(imageRes.headers.get('content-disposition')).toMatch(/^inline; filename="att_[0-9A-Za-z]{16}\.jpg"$/);
    expect(imageRes.headers.get('x-content-type-options')).toBe('nosniff');
    expect(imageRes.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(imageRes.headers.get('cache-control')).toMatch(/^private/);
    const pdfRes = await vendor.get(pdf?.attachment?.url as string);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');
    expect(pdfRes.headers.get('content-disposition')).toMatch(/^attachment; filename="att_[0-9A-Za-z]{16}\.pdf"$/);
    // Names we never made are 404, not a path into the folder.
    expect((await vendor.get('/uploads/trades/..%2F..%2Fmarketplace.db')).status).toBe(404);
    expect((await vendor.get('/uploads/trades/att_0000000000000000')).status).toBe(404);
  });
});

describe('requirements: upload, approve, reject', () => {
  beforeEach(async () => {
    const offer = await f.createOffer(vendor, {
      trade_requirements: [{ kind: 'photo_id', stage: 'before_reveal', optional: false }],
    });
    trade = await f.startTrade(buyer, offer);
  });

  const tradeOf = async (b: Browser) => (await (await b.get(`/rest/v1/trade/${trade.hash}`)).json()).data as TradeData;
  const requirementId = () => trade.flow.state.beforeRevealPaymentDetails?.[0]?.id as number;
  const prove = (b: Browser, url: string, requirement = requirementId()) =>
    b.post(`/rest/v1/trade/${trade.hash}/upload`, { url, requirement });
  const review = (b: Browser, action: 'approve' | 'reject') =>
    b.post(`/rest/v1/trade/${trade.hash}/requirement`, { action, id: requirementId() });
  const uploads = async (b: Browser) =>
    (await (await b.get(`/rest/v1/trade/${trade.hash}/uploads`)).json()).data as Upload[];

  it('holds the payment details and mark-paid back until the buyer’s proof is in; the owner approves', async () => {
    expect(trade.flow.step).toBe('before_reveal_payment_details');
    expect(trade.paymentDetails).toBeNull();
    expect(trade.actions.markPaid).toBe(false);
    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/paid`)).status).toBe(403);

    const events: { type: string }[] = [];
    bus.subscribe(tradeChannel(trade.hash), (event) => events.push(event));
    const [line] = await attached(buyer, [{ bytes: fixtures.jpeg }]);
    const res = await prove(buyer, line?.attachment?.url as string);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(events.map((e) => e.type)).toEqual(['message', 'requirements']);
    const [upload] = (await res.json()).data as Upload[];
    expect(upload).toMatchObject({
      id: line?.attachment?.id,
      requirementId: requirementId(),
      status: 'pending',
      requirementStatus: 'uploaded',
      resource: { url: line?.attachment?.url },
    });

    const after = await tradeOf(buyer);
    expect(after.flow.step).toBe('done');
    expect(after.flow.state.beforeRevealPaymentDetails?.[0]?.status).toBe('uploaded');
    expect(after.paymentDetails).toContain('IBAN');
    expect(after.actions.markPaid).toBe(true);
    expect(await uploads(vendor)).toEqual(await uploads(buyer));

    const approved = await review(vendor, 'approve');
    expect(approved.status).toBe(200);
    expect(((await approved.json()).data as Upload[])[0]?.status).toBe('approved');
    // A repeat is a double click; the approved requirement takes no other proof.
    expect((await review(vendor, 'approve')).status).toBe(200);
    const [another] = await attached(buyer, [{ bytes: fixtures.png }]);
    expect((await prove(buyer, another?.attachment?.url as string)).status).toBe(403);
    expect((await buyer.post(`/rest/v1/trade/${trade.hash}/paid`)).status).toBe(200);
  });

  it('a rejected proof blocks again until a new one is uploaded; a moderator may review too', async () => {
    const [first] = await attached(buyer, [{ bytes: fixtures.jpeg }]);
    await prove(buyer, first?.attachment?.url as string);
    const rejected = await review(vendor, 'reject');
    expect(((await rejected.json()).data as Upload[])[0]).toMatchObject({
      status: 'rejected',
      requirementStatus: 'rejected',
    });
    const blocked = await tradeOf(buyer);
    expect(blocked.flow.step).toBe('before_reveal_payment_details');
    expect(blocked.flow.state.beforeRevealPaymentDetails?.[0]?.status).toBe('rejected');
    expect(blocked.paymentDetails).toBeNull();
    // The same file again is refused; a new one passes, and a moderator approves it.
    expect((await prove(buyer, first?.attachment?.url as string)).status).toBe(400);
    const [second] = await attached(buyer, [{ bytes: fixtures.png }]);
    expect((await prove(buyer, second?.attachment?.url as string)).status).toBe(200);
    const moderator = await f.signedIn(MODERATOR);
    const approved = await review(moderator, 'approve');
    expect(((await approved.json()).data as Upload[])[0]).toMatchObject({
      id: second?.attachment?.id,
      status: 'approved',
    });
    expect((await tradeOf(buyer)).paymentDetails).toContain('IBAN');
  });

  it('links one file to one requirement, even when it is sent for two at once', async () => {
    const offer = await f.createOffer(vendor, {
      trade_requirements: [
        { kind: 'photo_id', stage: 'before_reveal', optional: false },
        { kind: 'selfie', stage: 'before_reveal', optional: false },
      ],
    });
    trade = await f.startTrade(buyer, offer);
    const [first, second] = (trade.flow.state.beforeRevealPaymentDetails ?? []).map((r) => r.id as number);
    const [line] = await attached(buyer, [{ bytes: fixtures.jpeg }]);
    const url = line?.attachment?.url as string;
    const answers = await Promise.all([prove(buyer, url, first), prove(buyer, url, second)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    expect((await uploads(buyer)).map((u) => u.id)).toEqual([line?.attachment?.id]);
  });

  it('only the responder proves, only the owner or a moderator reviews, strangers get 404', async () => {
    const [mine] = await attached(vendor, [{ bytes: fixtures.png }]);
    // The vendor owns the offer: nothing to prove, and not with someone else's file either.
    expect((await prove(vendor, mine?.attachment?.url as string)).status).toBe(403);
    const [theirs] = await attached(buyer, [{ bytes: fixtures.png }]);
    expect((await prove(buyer, mine?.attachment?.url as string)).status).toBe(400);
    expect((await prove(buyer, 'https://evil.example/x.png')).status).toBe(400);
    expect((await prove(buyer, theirs?.attachment?.url as string, 999_999)).status).toBe(400);
    expect((await review(vendor, 'approve')).status).toBe(400); // nothing uploaded yet
    expect((await prove(buyer, theirs?.attachment?.url as string)).status).toBe(200);
    expect((await review(buyer, 'approve')).status).toBe(403);
    const stranger = await f.signedIn(STRANGER);
    expect((await review(stranger, 'approve')).status).toBe(404);
    expect((await stranger.get(`/rest/v1/trade/${trade.hash}/uploads`)).status).toBe(404);
    expect((await t.send(`/rest/v1/trade/${trade.hash}/uploads`)).status).toBe(401);
    expect((await vendor.post(`/rest/v1/trade/${trade.hash}/requirement`, { action: 'maybe', id: 1 })).status).toBe(
      400,
    );
  });
});
