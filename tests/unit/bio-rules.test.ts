import { describe, expect, it } from 'vitest';
import {
  BIO_MAX_LENGTH,
  BIO_MAX_LINES,
  bioIssue,
  checkNotifyInterval,
  findContactDetails,
  NOTIFY_INTERVAL_MAX_MINUTES,
  normalizeBio,
} from '../../src/lib/shared/profile-rules.ts';

describe('bio contact details', () => {
  // What vendors actually write about themselves: counts, hours, limits, years, payment methods.
  it.each([
    'Fast trader since 2019, 24/7, 500+ trades',
    'Release within 15 minutes. Limits 500-25000 USD, bank transfer and Revolut.',
    'Trading since 2019-05-01 with 1200+ happy partners',
    'Min 0.00012345 BTC, max 0.5 BTC. Online Mon-Fri 9-17 CET.',
    'I sell 1000000 NGN daily; 100% positive feedback.',
    'Only bank transfers from accounts in your own name, e.g. SEPA or Wise. No third parties.',
    'Based in Lagos. I reply fast, usually within 5 min.',
    'Prices at market rate +2%. Volume discounts from $10000.',
    'Trusted since 2021 — 3000 trades, 0 disputes 🚀',
    'Selling @ market price, buying below it.',
    '',
  ])('accepts %j', (bio) => {
    expect(findContactDetails(bio)).toBeNull();
    expect(bioIssue(normalizeBio(bio))).toBeNull();
  });

  it.each([
    ['call me 0803 555 1234', 'phone'],
    ['Call +234 803 555 1234 for big orders', 'phone'],
    ['(0803) 555-1234 after 6pm', 'phone'],
    ['ring 08035551234', 'phone'],
    ['full-width digits ０８０３５５５１２３４', 'phone'],
    ['ping @fasttrader', 'messenger'],
    ['t.me/fast', 'messenger'],
    ['wa.me/2348035551234', 'messenger'],
    ['Add me on WhatsApp for a better rate', 'messenger'],
    ['find me on telegram', 'messenger'],
    ['Signal or Skype, same name', 'messenger'],
    ['discord fasttrader#1234', 'messenger'],
    ['me at x@y.com', 'email'],
    ['write to fasttrader at gmail', 'email'],
    ['visit fast-btc.com', 'url'],
    ['www.fastbtc', 'url'],
    ['http://fast-btc.example', 'url'],
    ['fast-btc dot com', 'url'],
    ['fast-btc[.]net', 'url'],
    ['shop at fastbtc.io/offers', 'url'],
    ['t\u200B.me/fast', 'messenger'],
  ])('refuses %j (%s)', (bio, kind) => {
    expect(findContactDetails(bio)).toBe(kind);
    expect(bioIssue(normalizeBio(bio))).toBe('bio_contact_error');
  });
});

describe('bio length and lines', () => {
  it(`allows ${BIO_MAX_LENGTH} characters, counting an emoji as one`, () => {
    expect(bioIssue('a'.repeat(BIO_MAX_LENGTH))).toBeNull();
    expect(bioIssue('🚀'.repeat(BIO_MAX_LENGTH))).toBeNull();
    expect(bioIssue('a'.repeat(BIO_MAX_LENGTH + 1))).toBe('bio_max');
  });

  it(`allows ${BIO_MAX_LINES} lines`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join('\n');
    expect(bioIssue(lines(BIO_MAX_LINES))).toBeNull();
    expect(bioIssue(lines(BIO_MAX_LINES + 1))).toBe('bio_limit');
    // Windows line breaks count once, and blank space around the text is not a line.
    expect(bioIssue(normalizeBio(`\r\n\r\n${lines(BIO_MAX_LINES).replaceAll('\n', '\r\n')}\r\n\r\n`))).toBeNull();
  });

  it('reports length before contact details, and contact details before lines', () => {
    expect(bioIssue(`call 0803 555 1234 ${'a'.repeat(BIO_MAX_LENGTH)}`)).toBe('bio_max');
    expect(bioIssue(`call 0803 555 1234${'\n'.repeat(BIO_MAX_LINES + 1)}x`)).toBe('bio_contact_error');
  });
});

describe('notification interval', () => {
  it.each([
    ['10', 10],
    [0, 0],
    ['0030', 30],
    [NOTIFY_INTERVAL_MAX_MINUTES, NOTIFY_INTERVAL_MAX_MINUTES],
  ])('accepts %j as %d minutes', (value, minutes) => {
    expect(checkNotifyInterval(value)).toEqual({ ok: true, minutes });
  });

  it.each([['10.5'], ['-5'], [' 10'], ['ten'], [''], [1.5], [-1], [null], [true]])(
    'refuses %j: digits only',
    (value) => {
      expect(checkNotifyInterval(value)).toEqual({ ok: false, key: 'notification_digits_error' });
    },
  );

  it(`refuses more than ${NOTIFY_INTERVAL_MAX_MINUTES} minutes`, () => {
    expect(checkNotifyInterval(String(NOTIFY_INTERVAL_MAX_MINUTES + 1))).toEqual({
      ok: false,
      key: 'notification_error',
    });
    expect(checkNotifyInterval('9'.repeat(400))).toEqual({ ok: false, key: 'notification_error' });
  });
});
