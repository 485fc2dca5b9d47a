import { afterEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { BODY_LIMIT_BYTES, normalizedBody } from '../../server/http/request-body.ts';
import { normalizeUserText } from '../../server/http/user-text.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Issue 16, items 6 and 8: bodies have limits, checked before and while reading; invisible text
// tricks never reach storage, for every field people write, through the one body middleware.

let t: TestApp;
afterEach(() => t?.close());

const TOKEN = 'A'.repeat(43);
const sameSite = { cookie: `${CSRF_COOKIE}=${TOKEN}`, [CSRF_HEADER]: TOKEN, origin: TEST_ORIGIN };

/** A body the client streams without declaring its length (Transfer-Encoding: chunked). */
function streamed(bytes: number, chunk = 16 * 1024): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const size = Math.min(chunk, bytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { stream, pulled: () => sent };
}

describe('request bodies have limits', () => {
  it('refuses a declared length over the limit with 413 before reading, anonymous or not', async () => {
    t = await createTestApp();
    const { stream, pulled } = streamed(200 * 1024 * 1024);
    const res = await t.app.request(
      `${TEST_ORIGIN}/rest/v1/auth/login`,
      {
        method: 'POST',
        headers: { ...sameSite, 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) },
        body: stream,
        duplex: 'half',
      } as RequestInit,
      { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
    );
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
    // At most what the stream machinery buffers ahead, never the 200 MB.
    expect(pulled()).toBeLessThan(1024 * 1024);
  });

  it('stops reading a streamed body once it passes the limit', async () => {
    t = await createTestApp();
    const { stream, pulled } = streamed(50 * 1024 * 1024);
    const res = await t.app.request(`${TEST_ORIGIN}/rest/v1/auth/login`, {
      method: 'POST',
      headers: { ...sameSite, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].code).toBe('PAYLOAD_TOO_LARGE');
    expect(pulled()).toBeLessThan(BODY_LIMIT_BYTES + 256 * 1024);
  });

  it('reads a body just under the limit as usual', async () => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const padding = 'x'.repeat(BODY_LIMIT_BYTES - 200);
    const res = await b.post('/rest/v1/users/settings', { bio: 'Quick releases.', padding });
    expect(res.status).toBe(200);
  });

  it('applies to bodies of any type, not only JSON', async () => {
    t = await createTestApp();
    const res = await t.send('/rest/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(BODY_LIMIT_BYTES + 1),
    });
    expect(res.status).toBe(413);
  });

  it('refuses JSON nested deeper than any form sends, without a 5xx', async () => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const res = await postRawJson(b.cookie, `{"bio":${'['.repeat(5000)}"é"${']'.repeat(5000)}}`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe('ERROR_INPUT_VALIDATION');
  });
});

/** JSON text the test client's JSON.stringify could not write (escapes kept, 5,000 levels deep). */
function postRawJson(cookie: string, body: string) {
  const csrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
  return t.send('/rest/v1/users/settings', {
    method: 'POST',
    headers: { cookie, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
    body,
  });
}

const TRICKS = {
  'right-to-left override': 'invoice\u202Efdp.exe',
  'left-to-right embedding': 'a\u202Ab\u202Cc',
  'first-strong isolate': 'pay \u2068to me\u2069 now',
  'zero-width space': 'pay\u200Bpal',
  'word joiner and BOM': 'quick\u2060re\uFEFFleases',
  'right-to-left mark': 'abc\u200Fdef',
  'control characters': 'bell\u0007 and escape\u001B[31m',
} as const;

describe('invisible text tricks never reach storage', () => {
  it.each(Object.entries(TRICKS))('strips the %s from a bio', async (_name, trick) => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const res = await b.post('/rest/v1/users/settings', { bio: trick });
    expect(res.status).toBe(200);
    const stored = (await res.json()).data.bio as string;
    expect(stored).toBe(normalizeUserText(trick));
    expect(stored).not.toMatch(/[\p{Cf}\p{Cc}]/u);
  });

  it('lets the bio rules see what a zero-width space hid ("tele\u200Bgram" is a messenger name)', async () => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const res = await b.post('/rest/v1/users/settings', { bio: 'Write me on tele\u200Bgram' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].details[0].field).toBe('bio');
  });

  it('strips escaped forms too (\\u202e inside the JSON text)', async () => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const res = await postRawJson(b.cookie, '{"bio":"invoice\\u202efdp.exe"}');
    expect(res.status).toBe(200);
    expect((await res.json()).data.bio).toBe('invoicefdp.exe');
  });

  it('composes text to NFC and keeps what real text needs (line breaks, emoji joiners, Persian ZWNJ)', async () => {
    t = await createTestApp();
    const b = await (await createUser(t)).session();
    const bio = 'Cafe\u0301 owner\n👩\u200D💻 می\u200Cخواهم';
    const res = await b.post('/rest/v1/users/settings', { bio });
    expect(res.status).toBe(200);
    expect((await res.json()).data.bio).toBe('Café owner\n👩\u200D💻 می\u200Cخواهم');
  });

  it('leaves passwords byte for byte (they are compared with what was stored), in JSON and in forms', () => {
    const json = JSON.parse(normalizedBody('application/json', '{"password":"a\u202eb","bio":"a\u202eb"}'));
    expect(json).toEqual({ password: 'a\u202Eb', bio: 'ab' });
    const form = new URLSearchParams(
      normalizedBody('application/x-www-form-urlencoded', 'new_password=a%E2%80%AEb&bio=a%E2%80%AEb'),
    );
    expect(form.get('new_password')).toBe('a\u202Eb');
    expect(form.get('bio')).toBe('ab');
  });
});
