import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { phones, users, verificationDocuments } from '../../db/schema/index.ts';
import { CSRF_HEADER } from '../../server/http/csrf.ts';
import type { BusEvent } from '../../server/realtime/bus.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { systemContext } from '../../server/services/context.ts';
import { DOCUMENT_MAX_BYTES } from '../../src/lib/shared/verification-rules.ts';
import { errorOf } from '../support/api-errors.ts';
import { type browserSession, signedInSession } from '../support/browser-session.ts';
import { pixelFlood } from '../support/images.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

// Identity and address documents: uploads and their abuse, the review queue, the flags and levels
// of the current user, the trading limit and the offer page's limit reason (docs/verification.md).

let t: TestApp;
afterEach(() => t?.close());

type Browser = ReturnType<typeof browserSession>;
type Doc = { id: string; kind: string; status: string; reason: string | null; fileUrl: string; contentType: string };

// Real files, made here: no binary fixtures in the repository.
const fixtures = {} as Record<'jpeg' | 'png' | 'gif' | 'small', Buffer>;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
beforeAll(async () => {
  fixtures.jpeg = await sharp({ create: { width: 3200, height: 2000, channels: 3, background: '#2c3e50' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Ada Lovelace' } })
    .toBuffer();
  fixtures.png = await sharp({ create: { width: 640, height: 480, channels: 4, background: '#2980b980' } })
    .png()
    .toBuffer();
  fixtures.gif = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#000' } })
    .gif()
    .toBuffer();
  fixtures.small = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#fff' } })
    .jpeg()
    .toBuffer();
});

/** The test's person: a fresh account in the test's app, made on first use (`newPerson`). */
let made: { app: typeof t; user: TestUser } | undefined;
const newPerson = async () => {
  if (made?.app !== t) made = { app: t, user: await createUser(t) };
  return made.user;
};
/** The person `newPerson` (or signing in without an address) made in this test's app. */
const person = () => {
  if (made?.app !== t) throw new Error('the test made no person yet: sign in first');
  return made.user;
};

const signedIn = async (email?: string) => signedInSession(t, email ?? (await newPerson()).email);

function form(kind: string, bytes: Uint8Array, extra: Record<string, string> = {}) {
  const body = new FormData();
  body.append('kind', kind);
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  body.append('file', new File([new Uint8Array(bytes)], 'scan.jpg', { type: 'image/jpeg' }));
  return body;
}

const upload = (b: Browser, kind: string, bytes: Uint8Array, extra?: Record<string, string>) =>
  b.send('/rest/v1/verification/documents', { method: 'POST', body: form(kind, bytes, extra) });

async function uploaded(b: Browser, kind: string, bytes: Uint8Array = fixtures.jpeg): Promise<Doc> {
  const res = await upload(b, kind, bytes);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return (await res.json()).data;
}

const statusOf = async (b: Browser) => (await (await b.get('/rest/v1/verification')).json()).data;
const currentUser = async (b: Browser) => (await (await b.get('/rest/v1/users/current_user')).json()).data;

async function userRow(email: string) {
  const row = await t.db.get(t.db.orm.select().from(users).where(eq(users.email, email)));
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

const storedFiles = async (email = person().email) => {
  const dir = join(t.uploadsDir, 'verification', (await userRow(email)).publicId);
  return existsSync(dir) ? readdirSync(dir) : [];
};
const documentRows = () => t.db.all(t.db.orm.select().from(verificationDocuments));

async function verifyPhone(email: string) {
  const userId = (await userRow(email)).id;
  await t.db.run(
    t.db.orm.insert(phones).values({ userId, number: '+12025550142', verifiedAt: t.clock.now, codesSentAt: [] }),
  );
}

/** Front and selfie uploaded and submitted: two pending documents. */
async function submittedIdentity(b: Browser) {
  const front = await uploaded(b, 'id_front');
  const selfie = await uploaded(b, 'selfie', fixtures.png);
  const res = await b.post('/rest/v1/verification/submit', { check: 'identity', full_name: 'Ada Lovelace' });
  expect(res.status).toBe(200);
  return { front, selfie };
}

const review = (b: Browser, id: string, decision: string, reason?: string) =>
  b.post(`/rest/v1/verification/documents/${id}/review`, { decision, ...(reason === undefined ? {} : { reason }) });

/** A JPEG whose comment segment carries a PDF header inside the first kilobyte: readable as both. */
function jpegWithPdfInside(jpeg: Buffer): Buffer {
  const comment = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\n', 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, comment, jpeg.subarray(2)]);
}

/** A PDF with a ZIP archive's central directory on its end: a PDF and a ZIP (or JAR) at once. */
function pdfWithZip(): Buffer {
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  return Buffer.concat([PDF, eocd]);
}

describe('GET /rest/v1/verification', () => {
  it('answers the level, the 30-day limit in the person’s currency and the next step', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const status = await statusOf(b);
    expect(status.level).toBe(1);
    expect(status.allowance).toMatchObject({
      level: 1,
      limitUsdCents: 100_000,
      usedUsdCents: 0,
      unusedUsdCents: 100_000,
      windowDays: 30,
      next: { level: 2, step: 'phone', limitUsdCents: 500_000 },
    });
    expect(status.levels.map((l: { step: string }) => l.step)).toEqual(['email', 'phone', 'identity', 'address']);
    expect(status.identity).toMatchObject({ status: 'missing', canSubmit: false });
    const me = await currentUser(b);
    expect(me.kycLevelCheck.level).toBe(1);
    expect(me.kycLevelCheck.unusedTradingVolumeInFiatCurrency).toBeGreaterThan(0);
    expect(me.showKYCVerificationBanner).toBe(true);
  });

  it('answers 401 without a session', async () => {
    t = await createTestApp();
    expect((await t.send('/rest/v1/verification')).status).toBe(401);
  });
});

describe('POST /rest/v1/verification/documents', () => {
  it('re-encodes an image without its metadata and keeps it outside any web root under a new name', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const doc = await uploaded(b, 'id_front');
    expect(doc).toMatchObject({ kind: 'id_front', status: 'uploaded', contentType: 'image/jpeg', reason: null });
    expect(doc.id).toMatch(/^doc_[0-9A-Za-z]{16}$/);
    const [name] = await storedFiles();
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    const stored = readFileSync(join(t.uploadsDir, 'verification', person().publicId, name as string));
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(2400);
    expect(stored.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('keeps a PDF rebuilt page by page and turns a PNG into a JPEG', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect((await uploaded(b, 'proof_of_address', PDF)).contentType).toBe('application/pdf');
    expect((await uploaded(b, 'selfie', fixtures.png)).contentType).toBe('image/jpeg');
    const pdfName = (await storedFiles()).find((n) => n.endsWith('.pdf')) as string;
    const stored = readFileSync(join(t.uploadsDir, 'verification', person().publicId, pdfName));
    expect((await PDFDocument.load(stored)).getPageCount()).toBe(1);
  });

  it('replaces a document not yet submitted, deleting the old file', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await uploaded(b, 'id_front');
    const second = await uploaded(b, 'id_front', fixtures.png);
    expect(await storedFiles()).toHaveLength(1);
    expect((await documentRows()).map((r) => r.publicId)).toEqual([second.id]);
  });

  const abuse: [string, () => Uint8Array | Promise<Uint8Array>, number, string][] = [
    ['a GIF', () => fixtures.gif, 400, 'verification_file_type'],
    ['HTML', () => Buffer.from('<html><script>alert(1)</script></html>'), 400, 'verification_file_type'],
    ['a PDF header not at the start', () => Buffer.concat([Buffer.from('junk\n'), PDF]), 400, 'verification_file_type'],
    [
      'a pixel flood (100000×100000 in a few bytes)',
      () => pixelFlood(100_000, 100_000),
      400,
      'verification_image_pixels',
    ],
    ['an image too small to read', () => fixtures.small, 400, 'verification_image_small'],
    ['a JPEG that is also a PDF', () => jpegWithPdfInside(fixtures.jpeg), 400, 'verification_file_polyglot'],
    ['a PDF that is also a ZIP', pdfWithZip, 400, 'verification_file_polyglot'],
    [
      'a PNG signature followed by HTML',
      () => Buffer.concat([fixtures.png.subarray(0, 8), Buffer.from('<html><body>')]),
      400,
      'verification_file_polyglot',
    ],
    [
      'a PNG signature with garbage',
      () => Buffer.concat([fixtures.png.subarray(0, 16), Buffer.alloc(200, 7)]),
      400,
      'verification_image_unreadable',
    ],
    // Scripts, actions, forms and attached files are dropped by the rebuild, not refused:
    // tests/security/pdf-active-content.test.ts.
    ['a truncated PDF', () => PDF.subarray(0, 60), 400, 'verification_pdf_damaged'],
  ];
  for (const [what, bytes, status, key] of abuse) {
    it(`refuses ${what} and stores nothing`, async () => {
      t = await createTestApp();
      const b = await signedIn();
      const res = await upload(b, 'id_front', await bytes());
      expect(res.status).toBe(status);
      const error = await errorOf(res);
      expect(error.field).toBe('file');
      expect(error.details?.[0]?.key).toBe(key);
      expect(await storedFiles()).toEqual([]);
      expect(await documentRows()).toEqual([]);
    });
  }

  it('refuses a file over 10 MB with 413, from its declared length and from its bytes', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await upload(b, 'id_front', Buffer.concat([fixtures.jpeg, Buffer.alloc(DOCUMENT_MAX_BYTES)]));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('PAYLOAD_TOO_LARGE');
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const declared = await t.send('/rest/v1/verification/documents', {
      method: 'POST',
      headers: {
        cookie,
        [CSRF_HEADER]: b.jar.get('XSRF-TOKEN') ?? '',
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(50 * 1024 * 1024),
      },
      body: '--x--',
    });
    expect(declared.status).toBe(413);
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses an unknown kind, a missing file and a body that is not multipart', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const kind = await upload(b, 'passport', fixtures.jpeg);
    expect(kind.status).toBe(400);
    expect((await errorOf(kind)).field).toBe('kind');
    const empty = new FormData();
    empty.append('kind', 'selfie');
    const missing = await b.send('/rest/v1/verification/documents', { method: 'POST', body: empty });
    expect((await errorOf(missing)).field).toBe('file');
    expect((await b.post('/rest/v1/verification/documents', { kind: 'selfie' })).status).toBe(415);
    expect(await documentRows()).toEqual([]);
  });

  it('refuses a document for another person', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const other = await createUser(t);
    const res = await upload(b, 'id_front', fixtures.jpeg, { user: other.publicId });
    expect(res.status).toBe(403);
    expect(await storedFiles(other.email)).toEqual([]);
    expect(await storedFiles()).toEqual([]);
    // Naming oneself is fine.
    expect((await upload(b, 'id_front', fixtures.jpeg, { user: person().publicId })).status).toBe(201);
  });

  it('refuses a re-upload while the document is pending review, and keeps the one under review', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { front } = await submittedIdentity(b);
    const res = await upload(b, 'id_front', fixtures.png);
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error.code).toBe('DOCUMENT_LOCKED');
    expect(await storedFiles()).toHaveLength(2);
    expect((await statusOf(b)).identity.documents.id_front).toMatchObject({ id: front.id, status: 'pending' });
  });

  it('answers 401 without a session and 403 without the CSRF token, storing nothing', async () => {
    t = await createTestApp();
    const anonymous = await t.send('/rest/v1/verification/documents', {
      method: 'POST',
      body: form('id_front', fixtures.jpeg),
    });
    expect(anonymous.status).toBe(401);
    const b = await signedIn();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.send('/rest/v1/verification/documents', {
      method: 'POST',
      body: form('id_front', fixtures.jpeg),
      headers: { cookie, [CSRF_HEADER]: '' },
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('CSRF_TOKEN_MISMATCH');
    expect(await documentRows()).toEqual([]);
  });
});

describe('POST /rest/v1/verification/submit', () => {
  it('moves uploaded documents to pending once the front and the selfie are there', async () => {
    t = await createTestApp();
    const b = await signedIn();
    await uploaded(b, 'id_front');
    const early = await b.post('/rest/v1/verification/submit', { check: 'identity' });
    expect(early.status).toBe(400);
    expect((await errorOf(early)).field).toBe('check');
    await uploaded(b, 'selfie');
    const res = await b.post('/rest/v1/verification/submit', { check: 'identity', full_name: 'Ada Lovelace' });
    expect(res.status).toBe(200);
    const { identity } = (await res.json()).data;
    expect(identity.status).toBe('pending');
    expect(identity.documents.id_front.status).toBe('pending');
    expect(identity.documents.id_back).toBeNull();
    const me = await currentUser(b);
    expect(me.isIdVerificationPending).toBe(true);
    expect(me.isIdVerified).toBe(false);
    expect((await b.post('/rest/v1/verification/submit', { check: 'passport' })).status).toBe(400);
  });
});

describe('document files', () => {
  it('serves the owner and moderators with nosniff and a fixed disposition; others get 404', async () => {
    t = await createTestApp();
    const owner = await signedIn();
    const image = await uploaded(owner, 'id_front');
    const pdf = await uploaded(owner, 'proof_of_address', PDF);

    const own = await owner.get(image.fileUrl);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(own.headers.get('content-disposition')).toBe('inline; filename="id_front.jpg"');
    expect(own.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    const ownPdf = await owner.get(pdf.fileUrl);
    expect(ownPdf.headers.get('content-type')).toBe('application/pdf');
    expect(ownPdf.headers.get('content-disposition')).toBe('attachment; filename="proof_of_address.pdf"');
    expect((await PDFDocument.load(await ownPdf.arrayBuffer())).getPageCount()).toBe(1);

    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    expect((await moderator.get(image.fileUrl)).status).toBe(200);
    const other = await (await createUser(t)).signIn();
    expect((await other.get(image.fileUrl)).status).toBe(404);
    expect((await t.send(image.fileUrl)).status).toBe(401);
    expect((await owner.get('/rest/v1/verification/documents/doc_AAAAAAAAAAAAAAAA/file')).status).toBe(404);
    expect((await owner.get('/rest/v1/verification/documents/..%2F..%2Fetc/file')).status).toBe(400);
  });
});

describe('review queue', () => {
  it('lists pending documents to moderators only', async () => {
    t = await createTestApp();
    // The seeded buyer: the queue names the uploader `buyer`.
    const b = await signedIn('buyer@example.com');
    const { front, selfie } = await submittedIdentity(b);
    await uploaded(b, 'proof_of_address', PDF); // uploaded, not submitted: not in the queue

    expect((await b.get('/rest/v1/verification/queue')).status).toBe(403);
    expect((await t.send('/rest/v1/verification/queue')).status).toBe(401);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    const res = await moderator.get('/rest/v1/verification/queue');
    expect(res.status).toBe(200);
    const queue = (await res.json()).data as (Doc & { user: { username: string } })[];
    expect(queue.map((d) => d.id)).toEqual([front.id, selfie.id]);
    expect(queue[0]?.user.username).toBe('buyer');
  });

  it('rejects with a reason the person reads, by e-mail too, and publishes the review after the commit', async () => {
    const bus = createInProcessBus();
    const events: BusEvent[] = [];
    bus.subscribe('verification', (event) => events.push(event));
    t = await createTestApp({ bus });
    // The seeded buyer: the rejection mail goes to the seeded address.
    const b = await signedIn('buyer@example.com');
    const { selfie } = await submittedIdentity(b);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();

    const noReason = await review(moderator, selfie.id, 'reject', '  ');
    expect(noReason.status).toBe(400);
    expect((await errorOf(noReason)).field).toBe('reason');
    expect((await review(b, selfie.id, 'approve')).status).toBe(403);

    const res = await review(moderator, selfie.id, 'reject', 'Your face is not visible.');
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ status: 'rejected', reason: 'Your face is not visible.' });
    const identity = (await statusOf(b)).identity;
    expect(identity.documents.selfie).toMatchObject({ status: 'rejected', reason: 'Your face is not visible.' });
    expect(t.sent.at(-1)).toMatchObject({ to: 'buyer@example.com' });
    expect(t.sent.at(-1)?.text).toContain('Your face is not visible.');
    expect(events).toEqual([
      {
        type: 'verification.reviewed',
        payload: expect.objectContaining({
          userPublicId: (await userRow('buyer@example.com')).publicId,
          documentId: selfie.id,
          kind: 'selfie',
          decision: 'rejected',
          reason: 'Your face is not visible.',
        }),
      },
    ]);
    // Reviewed once: a second decision is refused.
    const again = await review(moderator, selfie.id, 'approve');
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('DOCUMENT_LOCKED');
    // A rejected document may be replaced.
    expect((await upload(b, 'selfie', fixtures.png)).status).toBe(201);
  });

  it('approving the front and the selfie verifies the identity and raises the level and the limit', async () => {
    t = await createTestApp();
    await verifyPhone((await newPerson()).email);
    const b = await signedIn();
    expect((await statusOf(b)).level).toBe(2);
    const { front, selfie } = await submittedIdentity(b);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    expect((await review(moderator, front.id, 'approve')).status).toBe(200);
    expect((await currentUser(b)).isIdVerified).toBe(false);
    expect((await review(moderator, selfie.id, 'approve')).status).toBe(200);

    const me = await currentUser(b);
    expect(me).toMatchObject({ isIdVerified: true, isDocumentVerified: true, isIdVerificationPending: false });
    expect(me.kycLevelCheck.level).toBe(3);
    const status = await statusOf(b);
    expect(status.allowance).toMatchObject({ level: 3, limitUsdCents: 2_500_000, next: { step: 'address' } });
    expect(status.identity.status).toBe('verified');
    expect(t.sent.at(-1)?.subject).toBe('Your Coinfair document was approved');
    // Verified: nothing more to upload for the identity.
    expect((await upload(b, 'id_back', fixtures.jpeg)).status).toBe(409);

    await uploaded(b, 'proof_of_address', PDF);
    expect((await b.post('/rest/v1/verification/submit', { check: 'address' })).status).toBe(200);
    expect((await currentUser(b)).isAddressVerificationPending).toBe(true);
    const [poa] = (await (await moderator.get('/rest/v1/verification/queue')).json()).data as Doc[];
    expect((await review(moderator, poa?.id as string, 'approve')).status).toBe(200);
    const after = await currentUser(b);
    expect(after).toMatchObject({ isAddressVerified: true, isAddressVerificationPending: false });
    expect(after.kycLevelCheck.level).toBe(4);
    expect(after.showKYCVerificationBanner).toBe(false);
  });

  it('answers 403 to a review without the CSRF token', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const { front } = await submittedIdentity(b);
    const moderator = await (await createUser(t, { role: 'moderator' })).signIn();
    const cookie = [...moderator.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.send(`/rest/v1/verification/documents/${front.id}/review`, {
      method: 'POST',
      json: { decision: 'approve' },
      headers: { cookie, [CSRF_HEADER]: '' },
    });
    expect(res.status).toBe(403);
    expect((await statusOf(b)).identity.documents.id_front.status).toBe('pending');
  });
});

describe('trading limit', () => {
  it('refuses a trade above what the level leaves for the rolling 30 days, counting trades of both sides', async () => {
    t = await createTestApp();
    const buyer = await newPerson();
    const vendor = await createUser(t, { vendor: true });
    const { verification } = t.services;
    const system = systemContext('test');
    expect(
      (await verification.assertWithinLimit(system, { userId: buyer.id, usdAmountCents: 100_000 })).unusedUsdCents,
    ).toBe(100_000);
    await expect(verification.assertWithinLimit(system, { userId: buyer.id, usdAmountCents: 100_001 })).rejects.toThrow(
      expect.objectContaining({ code: 'TRADING_LIMIT_EXCEEDED', key: 'trading_limit_exceeded' }),
    );

    // A trade 40 days ago does not count; one 10 days ago does, whichever side the person was on;
    // a cancelled one does not.
    const offer = (await t.db.sql.get<{ id: number; fiat_currency_id: number; payment_method_id: number }>(
      'SELECT id, fiat_currency_id, payment_method_id FROM offers ORDER BY id LIMIT 1',
    )) as { id: number; fiat_currency_id: number; payment_method_id: number };
    const insertTrade = `INSERT INTO trades (hash, offer_id, offer_type, owner_id, responder_id,
      buyer_id, seller_id, crypto_code, crypto_amount, fee_amount, fee_basis_points, escrow_ref, fiat_currency_id,
      fiat_amount_minor, price_minor, usd_amount_cents, payment_method_id, payment_window_minutes, offer_terms,
      payment_details, tags, status, started_at, expires_at, updated_at)
      VALUES (?, ?, 'sell', ?, ?, ?, ?, 'BTC', 1000, 10, 100, ?, ?, 1, 1, ?, ?, 60, '', '', '[]', ?, ?, ?, ?)`;
    const trade = (hash: string, buyerId: number, sellerId: number, cents: number, status: string, daysAgo: number) => {
      const at = t.clock.now - daysAgo * 86_400_000;
      return t.db.sql.run(insertTrade, [
        hash,
        offer.id,
        sellerId,
        buyerId,
        buyerId,
        sellerId,
        hash,
        offer.fiat_currency_id,
        cents,
        offer.payment_method_id,
        status,
        at,
        at + 3_600_000,
        at,
      ]);
    };
    await trade('tradeOld0001', buyer.id, vendor.id, 90_000, 'released', 40);
    await trade('tradeBuy0001', buyer.id, vendor.id, 30_000, 'released', 10);
    await trade('tradeSell001', vendor.id, buyer.id, 20_000, 'active_funded', 1);
    await trade('tradeCncl001', buyer.id, vendor.id, 50_000, 'cancelled_buyer', 1);

    const allowance = await verification.tradeAllowance(system, { userId: buyer.id });
    expect(allowance).toMatchObject({ level: 1, usedUsdCents: 50_000, unusedUsdCents: 50_000 });
    await expect(verification.assertWithinLimit(system, { userId: buyer.id, usdAmountCents: 50_001 })).rejects.toThrow(
      expect.objectContaining({ code: 'TRADING_LIMIT_EXCEEDED' }),
    );
    expect((await verification.assertWithinLimit(system, { userId: buyer.id, usdAmountCents: 50_000 })).level).toBe(1);
  });

  it('says on the offer page when an offer’s minimum is above what the level leaves, until the level rises', async () => {
    t = await createTestApp();
    const vendor = await (await createUser(t, { vendor: true })).signIn();
    const created = await vendor.post('/rest/v1/offers', {
      type: 'sell',
      crypto_currency_code: 'BTC',
      currency: 'USD',
      payment_method: 'bank-transfer',
      price_type: 'margin',
      margin: '2',
      fiat_min: '2000',
      fiat_max: '9000',
      payment_window: 60,
      terms: 'Bank transfer from your own account.',
      trade_instructions: 'Details in the chat.',
      tags: [],
    });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const { hash } = (await created.json()).data;
    const b = await signedIn();
    const before = (await (await b.get(`/rest/v1/offers/${hash}`)).json()).meta;
    const block = before.blocks.find((x: { code: string }) => x.code === 'trading_limit');
    expect(block?.message).toContain('1000.00 USD');
    expect(block?.params).toMatchObject({ level: 1, unused: '1000.00', currency: 'USD' });
    // The maximum comes down to what the level leaves, and says why (issue 22).
    expect(before.limits).toEqual({ min: 2000, max: 2000, cappedBy: 'verification', level: 1 });

    await verifyPhone(person().email);
    const phoned = (await (await b.get(`/rest/v1/offers/${hash}`)).json()).meta;
    expect(phoned.limits).toEqual({ min: 2000, max: 5000, cappedBy: 'verification', level: 2 });
    await t.db.run(t.db.orm.update(users).set({ idVerifiedAt: t.clock.now }).where(eq(users.id, person().id)));
    const after = (await (await b.get(`/rest/v1/offers/${hash}`)).json()).meta;
    expect(after.blocks.map((x: { code: string }) => x.code)).not.toContain('trading_limit');
    expect(after.limits).toEqual({ min: 2000, max: 9000 });
  });
});
