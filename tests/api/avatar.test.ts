import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { isApiPath } from '../../server/app.ts';
import { ConfigError, readConfig } from '../../server/config.ts';
import { CSRF_HEADER } from '../../server/http/csrf.ts';
import { MAX_UPLOAD_BYTES } from '../../server/services/avatar/avatar.ts';
import { sniffImageType } from '../../server/services/avatar/image-type.ts';
import { errorOf } from '../support/api-errors.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { pixelFlood } from '../support/images.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
// The configuration tests make no app of their own: each app is closed once, not again after them.
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp;
});

type Browser = ReturnType<typeof browserSession>;

const FILE_URL = /^upload:[0-9a-f]{32}$/;
const AVATAR_URL = /^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/;

// Real images, made by sharp itself: no binary fixtures in the repository.
const fixtures = {} as Record<'jpeg' | 'png' | 'gif', Buffer>;
beforeAll(async () => {
  fixtures.jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0392b' } })
    .jpeg()
    // A camera's tell-tales: who, with what, and where (GPS), all of which must not survive.
    .withExif({
      IFD0: { Make: 'SecretCam', Copyright: 'Ada Lovelace' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 0/1' },
    })
    .toBuffer();
  fixtures.png = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#2980b980' } })
    .png()
    .toBuffer();
  fixtures.gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .gif()
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

function form(bytes: Uint8Array, name = 'avatar.jpg', type = 'image/jpeg') {
  const body = new FormData();
  body.append('file', new File([new Uint8Array(bytes)], name, { type }));
  return body;
}

const upload = (b: Browser, bytes: Uint8Array, name?: string, type?: string) =>
  b.send('/rest/v1/users/avatar-upload', { method: 'POST', body: form(bytes, name, type) });

async function uploaded(b: Browser, bytes: Uint8Array): Promise<string> {
  const res = await upload(b, bytes);
  expect(res.status).toBe(200);
  const { fileUrl } = (await res.json()).data;
  expect(fileUrl).toMatch(FILE_URL);
  return fileUrl;
}

const processAvatar = (b: Browser, fileUrl: unknown) => b.post('/rest/v1/users/process-avatar', { fileUrl });

async function avatarOf(b: Browser, bytes: Uint8Array): Promise<string> {
  const res = await processAvatar(b, await uploaded(b, bytes));
  expect(res.status).toBe(200);
  const { url } = (await res.json()).data;
  expect(url).toMatch(AVATAR_URL);
  return url;
}

async function publicIdOf(email: string): Promise<string> {
  const row = await t.db.get(t.db.orm.select({ publicId: users.publicId }).from(users).where(eq(users.email, email)));
  if (!row) throw new Error(`no user ${email}`);
  return row.publicId;
}

const pendingFiles = async (email = person().email) => {
  const dir = join(t.uploadsDir, 'pending', await publicIdOf(email));
  return existsSync(dir) ? readdirSync(dir) : [];
};
const avatarFiles = () => {
  const dir = join(t.uploadsDir, 'avatars');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('POST /rest/v1/users/avatar-upload', () => {
  it('stores a JPEG or PNG as received in the uploader’s pending area and answers an opaque reference', async () => {
    t = await createTestApp();
    const b = await signedIn();
    for (const bytes of [fixtures.jpeg, fixtures.png]) {
      const fileUrl = await uploaded(b, bytes);
      const id = fileUrl.slice('upload:'.length);
      expect(readFileSync(join(t.uploadsDir, 'pending', await publicIdOf(person().email), id))).toEqual(bytes);
    }
    expect(avatarFiles()).toEqual([]);
  });

  it('goes by the bytes, not by the name or the declared type', async () => {
    t = await createTestApp();
    const b = await signedIn();
    expect((await upload(b, fixtures.jpeg, 'notes.gif', 'text/html')).status).toBe(200);
    const disguised = await upload(b, fixtures.gif, 'avatar.png', 'image/png');
    expect(disguised.status).toBe(400);
    expect(await errorOf(disguised)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'file' });
  });

  it.each([
    ['GIF', () => fixtures.gif],
    [
      'SVG',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>'),
    ],
    ['HTML', () => Buffer.from('<!doctype html><script>alert(document.cookie)</script>')],
    ['an empty file', () => Buffer.alloc(0)],
    ['half a PNG signature', () => Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  ])('refuses %s by its magic bytes and stores nothing', async (_label, bytes) => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await upload(b, bytes(), 'avatar.jpg', 'image/jpeg');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe('file');
    expect(await pendingFiles()).toEqual([]);
  });

  it('refuses more than 5 MB with 413, from the body and early from Content-Length', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    fixtures.jpeg.copy(big);
    const res = await upload(b, big);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('PAYLOAD_TOO_LARGE');

    // A declared 50 MB is refused by the header alone, before any byte is read.
    expect((await upload(b, fixtures.jpeg)).status).toBe(200);
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const declared = await t.send('/rest/v1/users/avatar-upload', {
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
    expect(await pendingFiles()).toHaveLength(1);
  });

  it('keeps at most 5 pending uploads per person, dropping the oldest', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const refs: string[] = [];
    for (let i = 0; i < 7; i++) refs.push(await uploaded(b, fixtures.png));
    expect(await pendingFiles()).toHaveLength(5);
    expect((await processAvatar(b, refs.at(-1))).status).toBe(200);
  });

  it('answers 415 to a body that is not multipart/form-data', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.send('/rest/v1/users/avatar-upload', { method: 'POST', json: { file: 'x' } });
    expect(res.status).toBe(415);
    const noFile = await b.send('/rest/v1/users/avatar-upload', { method: 'POST', body: new FormData() });
    expect(noFile.status).toBe(400);
    expect((await errorOf(noFile)).field).toBe('file');
  });
});

describe('POST /rest/v1/users/process-avatar', () => {
  it('re-encodes to a 256×256 JPEG without metadata, sets the avatar and deletes the upload', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const original = await sharp(fixtures.jpeg).metadata();
    expect(original.exif).toBeDefined();
    expect(fixtures.jpeg.includes('SecretCam')).toBe(true);

    const url = await avatarOf(b, fixtures.jpeg);
    expect(await pendingFiles()).toEqual([]);
    const stored = readFileSync(join(t.uploadsDir, 'avatars', url.split('/').at(-1) ?? ''));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    for (const secret of ['SecretCam', 'Ada Lovelace', 'GPS']) expect(stored.includes(secret)).toBe(false);

    const me = (await (await b.get('/rest/v1/users/me')).json()).data;
    expect(me.avatarUrl).toBe(url);
  });

  it('turns a transparent PNG into a JPEG on white', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const url = await avatarOf(b, fixtures.png);
    const res = await b.get(url);
    const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    // 50 % blue over white, not over black.
    expect(data[0]).toBeGreaterThan(120);
  });

  it('replaces the previous avatar and deletes its file', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const first = await avatarOf(b, fixtures.jpeg);
    const second = await avatarOf(b, fixtures.png);
    expect(second).not.toBe(first);
    expect(avatarFiles()).toEqual([second.split('/').at(-1)]);
    expect((await b.get(first)).status).toBe(404);
    expect((await b.get(second)).status).toBe(200);
  });

  it('refuses a pixel flood at once, from the header, without decoding', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const flood = await pixelFlood(20_000, 20_000);
    expect(flood.length).toBeLessThan(100);
    const fileUrl = await uploaded(b, flood);
    const started = performance.now();
    const res = await processAvatar(b, fileUrl);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ field: 'fileUrl', message: expect.stringMatching(/megapixels/) });
    expect(avatarFiles()).toEqual([]);
  });

  it('refuses a real image just over 40 megapixels', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const big = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const res = await processAvatar(b, await uploaded(b, big));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/megapixels/);
  });

  it('refuses a PNG signature followed by HTML, and stores nothing from it', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const polyglot = Buffer.concat([
      fixtures.png.subarray(0, 16),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);
    expect(sniffImageType(polyglot)).toBe('png');
    const res = await processAvatar(b, await uploaded(b, polyglot));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe('fileUrl');
    expect(avatarFiles()).toEqual([]);
    expect((await (await b.get('/rest/v1/users/me')).json()).data.avatarUrl).toBeNull();
  });

  it.each([
    [
      'a JPEG with a ZIP after it',
      () => Buffer.concat([fixtures.jpeg, Buffer.from('PK\x03\x04\x14\x00evil.html<script>x</script>')]),
    ],
    [
      'a PNG with HTML after it',
      () => Buffer.concat([fixtures.png, Buffer.from('<html><script>alert(1)</script></html>')]),
    ],
  ])('serves %s only as a clean re-encoded JPEG', async (_label, bytes) => {
    t = await createTestApp();
    const b = await signedIn();
    const url = await avatarOf(b, bytes());
    const served = Buffer.from(await (await b.get(url)).arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
    for (const marker of ['PK\x03\x04', '<script', '<html']) expect(served.includes(marker)).toBe(false);
  });

  it('refuses a truncated image', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await processAvatar(b, await uploaded(b, fixtures.jpeg.subarray(0, fixtures.jpeg.length - 60)));
    expect(res.status).toBe(400);
    expect(avatarFiles()).toEqual([]);
  });

  it('finds only the caller’s own uploads: another person’s is 404 and stays theirs', async () => {
    t = await createTestApp();
    const ownerUser = await createUser(t);
    const owner = await ownerUser.signIn();
    const fileUrl = await uploaded(owner, fixtures.jpeg);
    const other = await signedIn();
    const res = await processAvatar(other, fileUrl);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('NOT_FOUND');
    expect(await pendingFiles(ownerUser.email)).toHaveLength(1);
    expect((await processAvatar(owner, fileUrl)).status).toBe(200);
    // Used up.
    expect((await processAvatar(owner, fileUrl)).status).toBe(404);
  });

  it.each([
    ['https://evil.example/cat.png'],
    ['upload:../../../etc/passwd'],
    ['upload:ABCDEF'],
    ['/uploads/avatars/0123456789abcdef0123456789abcdef.jpg'],
    [42],
  ])('refuses the reference %j with 400 and fetches nothing', async (fileUrl) => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await processAvatar(b, fileUrl);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).field).toBe('fileUrl');
  });
});

describe('GET /uploads/avatars/:name', () => {
  it('serves the avatar as a JPEG that cannot be sniffed into anything else, cached for long', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const url = await avatarOf(b, fixtures.jpeg);
    const res = await browserSession(t).get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(sniffImageType(new Uint8Array(await res.arrayBuffer()))).toBe('jpeg');
  });

  it.each([
    ['/uploads/avatars/..%2F..%2F..%2Fetc%2Fpasswd'],
    ['/uploads/avatars/%2e%2e%2fpending'],
    ['/uploads/avatars/..'],
    ['/uploads/avatars/0123456789ABCDEF0123456789abcdef.jpg'],
    ['/uploads/avatars/0123456789abcdef0123456789abcdef.png'],
    ['/uploads/avatars/0123456789abcdef0123456789abcdef.jpg'],
    ['/uploads/avatars/0123456789abcdef0123456789abcdef.jpg%00.png'],
    ['/uploads/avatars/'],
    ['/uploads/../data/marketplace.db'],
  ])('answers %s with 404', async (path) => {
    t = await createTestApp();
    const res = await t.send(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('never serves a pending upload', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const id = (await uploaded(b, fixtures.jpeg)).slice('upload:'.length);
    for (const path of [
      `/uploads/pending/${await publicIdOf(person().email)}/${id}`,
      `/uploads/avatars/..%2Fpending%2F${await publicIdOf(person().email)}%2F${id}`,
      `/uploads/avatars/${id}`,
      `/uploads/avatars/${id}.jpg`,
    ]) {
      expect((await b.get(path)).status).toBe(404);
    }
  });
});

describe('access', () => {
  it('answers 401 without a session, before reading the upload', async () => {
    t = await createTestApp();
    const visitor = browserSession(t);
    expect((await upload(visitor, fixtures.jpeg)).status).toBe(401);
    expect((await processAvatar(visitor, `upload:${'a'.repeat(32)}`)).status).toBe(401);
    expect(existsSync(join(t.uploadsDir, 'pending'))).toBe(false);
  });

  it('answers 403 without the CSRF header', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.send('/rest/v1/users/avatar-upload', {
      method: 'POST',
      body: form(fixtures.jpeg),
      headers: { cookie, [CSRF_HEADER]: '' },
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('CSRF_TOKEN_MISMATCH');
    const fileUrl = await uploaded(b, fixtures.jpeg);
    const processRes = await t.send('/rest/v1/users/process-avatar', {
      method: 'POST',
      json: { fileUrl },
      headers: { cookie, [CSRF_HEADER]: '' },
    });
    expect(processRes.status).toBe(403);
    expect(await pendingFiles()).toHaveLength(1);
  });
});

describe('configuration', () => {
  it('keeps UPLOADS_DIR outside the folders served as static files', () => {
    expect(readConfig({}).UPLOADS_DIR).toBe('data/uploads');
    expect(readConfig({ UPLOADS_DIR: '/var/lib/coinfair/uploads' }).UPLOADS_DIR).toBe('/var/lib/coinfair/uploads');
    for (const dir of ['', 'public', 'public/uploads', 'build/client/uploads', './build']) {
      expect(() => readConfig({ UPLOADS_DIR: dir }), dir).toThrow(ConfigError);
    }
  });

  it('sends /uploads/ to the API, not to the pages', () => {
    expect(isApiPath('/uploads/avatars/0123456789abcdef0123456789abcdef.jpg')).toBe(true);
  });
});
