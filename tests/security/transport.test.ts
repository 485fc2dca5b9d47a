import { describe, expect, it } from 'vitest';
import { PAGE_UPLOAD_LIMIT_BYTES, pageBodyRefusal } from '../../server/http/page-body.ts';
import { BODY_LIMIT_BYTES } from '../../server/http/request-body.ts';
import { hostRefusal } from '../../server/http/transport.ts';
import { createSiteOrigin } from '../../server/site-origin.ts';

// The pieces server/main.ts runs before any handler (the built server's wiring is
// tests/e2e/public-origin.test.ts and tests/e2e/server.test.ts).

describe('the site origin absolute URLs start with', () => {
  it('is PUBLIC_ORIGIN when set, whatever the request said', () => {
    const site = createSiteOrigin({ PUBLIC_ORIGIN: 'https://coinfair.example/some/path', HOST: '0.0.0.0', PORT: 80 });
    expect(site.url('/reset-password?token=t')).toBe('https://coinfair.example/reset-password?token=t');
    site.listeningOn(4999);
    expect(site.origin).toBe('https://coinfair.example');
  });

  it('is http://HOST:PORT from the configuration otherwise, the bound port once listening', () => {
    const site = createSiteOrigin({ HOST: '127.0.0.1', PORT: 0 });
    site.listeningOn(41234);
    expect(site.url('/auth/verify-email?token=t')).toBe('http://127.0.0.1:41234/auth/verify-email?token=t');
    expect(createSiteOrigin({ HOST: '0.0.0.0', PORT: 8080 }).origin).toBe('http://localhost:8080');
    expect(createSiteOrigin({ HOST: '::1', PORT: 8080 }).origin).toBe('http://[::1]:8080');
  });
});

describe('hostRefusal', () => {
  const site = createSiteOrigin({ PUBLIC_ORIGIN: 'https://coinfair.example' });

  it('refuses another host, a missing one and a look-alike with 421', () => {
    for (const host of ['evil.example', undefined, 'coinfair.example.evil.example', 'coinfair.example:8443']) {
      expect(hostRefusal(host, '/reset-password', site)?.status, String(host)).toBe(421);
    }
  });

  it('serves the configured host in any letter case, and /healthz to any host', () => {
    expect(hostRefusal('Coinfair.Example', '/', site)).toBeUndefined();
    expect(hostRefusal('10.0.0.7:4321', '/healthz', site)).toBeUndefined();
  });

  it('checks nothing without PUBLIC_ORIGIN (links come from HOST:PORT anyway)', () => {
    expect(hostRefusal('evil.example', '/', createSiteOrigin({ HOST: '127.0.0.1', PORT: 4321 }))).toBeUndefined();
  });
});

describe('pageBodyRefusal', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it('refuses a form over 64 KB and a document upload over its limit by the declared length', () => {
    expect(pageBodyRefusal('POST', { ...form, 'content-length': String(BODY_LIMIT_BYTES + 1) })?.status).toBe(413);
    expect(pageBodyRefusal('POST', { ...form, 'content-length': String(BODY_LIMIT_BYTES) })).toBeUndefined();
    const upload = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(pageBodyRefusal('POST', { ...upload, 'content-length': String(PAGE_UPLOAD_LIMIT_BYTES) })).toBeUndefined();
    expect(pageBodyRefusal('POST', { ...upload, 'content-length': String(PAGE_UPLOAD_LIMIT_BYTES + 1) })?.status).toBe(
      413,
    );
    expect(pageBodyRefusal('POST', { ...form, 'content-length': 'lots' })?.status).toBe(413);
  });

  it('asks for the length of a streamed body (411) and lets reads through', () => {
    expect(pageBodyRefusal('POST', { ...form, 'transfer-encoding': 'chunked' })?.status).toBe(411);
    expect(pageBodyRefusal('POST', {})).toBeUndefined();
    expect(pageBodyRefusal('GET', { 'transfer-encoding': 'chunked' })).toBeUndefined();
  });
});
