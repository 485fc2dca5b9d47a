import { describe, expect, it } from 'vitest';
import { preferredEncoding } from '../../server/http/content-encoding.ts';
import { pageContentSecurityPolicy } from '../../server/http/content-security-policy.ts';
import { readCookie } from '../../server/http/cookies.ts';
import { isSameSiteRequest, presentedCsrfCookie } from '../../server/http/csrf.ts';
import { fromAcceptLanguage } from '../../server/http/locale.ts';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['*', 'br'],
    ['gzip;q=0', undefined],
  ])('%s → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('fromAcceptLanguage', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['xx, pt-BR;q=0.5', 'pt'],
    ['nb-NO', 'no'],
    ['en;q=0.1, ja;q=0.9', 'ja'],
    ['xx-YY', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(fromAcceptLanguage(header)).toBe(expected);
  });
});

describe('cookies and CSRF helpers', () => {
  it('reads one cookie among many', () => {
    expect(readCookie('a=1; XSRF-TOKEN=abc; b=2', 'XSRF-TOKEN')).toBe('abc');
    expect(readCookie('a=1', 'XSRF-TOKEN')).toBeUndefined();
    expect(readCookie('x=%E0%A4%A', 'x')).toBe('%E0%A4%A');
  });

  it('never answers from the previous header, and lets the first of two equal names win', () => {
    expect(readCookie('session=one; locale=de', 'session')).toBe('one');
    expect(readCookie('session=two', 'session')).toBe('two');
    expect(readCookie('session=two', 'locale')).toBeUndefined();
    expect(readCookie('session=first; session=second', 'session')).toBe('first');
  });

  it('accepts only well-formed tokens', () => {
    expect(presentedCsrfCookie(`XSRF-TOKEN=${'a'.repeat(43)}`)).toBe('a'.repeat(43));
    expect(presentedCsrfCookie('XSRF-TOKEN=short')).toBeUndefined();
  });

  it('judges the request site from Origin and Sec-Fetch-Site', () => {
    const own = 'https://coinfair.example';
    const check = (h: Record<string, string>, allowed: string[] = []) =>
      isSameSiteRequest(new Headers(h), own, allowed);
    expect(check({})).toBe(true);
    expect(check({ origin: own, 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(check({ origin: 'https://evil.example' })).toBe(false);
    expect(check({ 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(check({ 'sec-fetch-site': 'same-site' })).toBe(false);
    expect(
      check({ origin: 'https://app.coinfair.example', 'sec-fetch-site': 'same-site' }, [
        'https://app.coinfair.example',
      ]),
    ).toBe(true);
  });
});

describe('pageContentSecurityPolicy', () => {
  it('allows exactly the inline scripts of the page by hash, and no external origin', () => {
    const policy = pageContentSecurityPolicy(
      '<script>var a=1</script><script type="module">b()</script><script src="/dist/x.js"></script>',
    );
    expect(policy).toContain("script-src 'self' 'sha256-");
    expect(policy.match(/'sha256-/g)).toHaveLength(2);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
