import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  hashRecoveryCode,
  newRecoveryCodes,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
} from '../../server/services/two-factor/recovery-codes.ts';
import {
  looksLikeTotp,
  matchTotp,
  newTotpSecret,
  otpauthUrl,
  qrSvg,
  STEP_SECONDS,
  stepAt,
} from '../../server/services/two-factor/totp.ts';

const SECRET = newTotpSecret();
/** 2026-11-22T12:00:00Z, the first second of a step. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const STEP_MS = STEP_SECONDS * 1000;

/** The code an authenticator app shows at `ms`. */
const codeAt = (ms: number) => generateSync({ secret: SECRET, epoch: Math.floor(ms / 1000) });

describe('TOTP steps', () => {
  it('numbers 30-second steps from the Unix epoch', () => {
    expect(stepAt(T0)).toBe(T0 / STEP_MS);
    expect(stepAt(T0 + STEP_MS - 1)).toBe(stepAt(T0));
    expect(stepAt(T0 + STEP_MS)).toBe(stepAt(T0) + 1);
  });

  // Wherever `now` falls in its step, the window is exactly the previous, current and next step.
  it.each([
    ['at the start of a step', 0],
    ['in the middle of a step', 14_500],
    ['in the last millisecond of a step', STEP_MS - 1],
  ])('accepts ±1 step and refuses ±2 %s', (_, offset) => {
    const now = T0 + offset;
    const step = stepAt(now);
    for (const delta of [-1, 0, 1]) {
      expect(matchTotp(SECRET, codeAt(now + delta * STEP_MS), now, null)).toBe(step + delta);
    }
    for (const delta of [-2, 2]) {
      expect(matchTotp(SECRET, codeAt(now + delta * STEP_MS), now, null)).toBeNull();
    }
  });

  it('refuses the last used step and every earlier one, accepts a later one', () => {
    const step = stepAt(T0);
    const code = codeAt(T0);
    expect(matchTotp(SECRET, code, T0, step - 1)).toBe(step);
    expect(matchTotp(SECRET, code, T0 + 10_000, step)).toBeNull(); // same code, same window
    expect(matchTotp(SECRET, codeAt(T0 - STEP_MS), T0, step)).toBeNull(); // older, though within drift
    expect(matchTotp(SECRET, codeAt(T0 + STEP_MS), T0 + STEP_MS, step)).toBe(step + 1);
    // A phone a step ahead was used; the current step's code may not follow it.
    expect(matchTotp(SECRET, codeAt(T0), T0, step + 1)).toBeNull();
  });

  it('answers no, without throwing, when the last used step lies beyond the window', () => {
    // The server clock went back a minute after a code was used.
    expect(matchTotp(SECRET, codeAt(T0), T0, stepAt(T0) + 5)).toBeNull();
  });

  it.each(['', '12345', '1234567', '12a456', ' 123456', 'abcdef'])('refuses %j without asking otplib', (code) => {
    expect(matchTotp(SECRET, code, T0, null)).toBeNull();
  });

  it('refuses a code made with another secret', () => {
    const other = generateSync({ secret: newTotpSecret(), epoch: T0 / 1000 });
    expect(matchTotp(SECRET, other, T0, null)).toBeNull();
  });

  it('tells TOTP codes from recovery codes by shape', () => {
    expect(looksLikeTotp('012345')).toBe(true);
    expect(looksLikeTotp('k7pq2-xm9rt')).toBe(false);
  });
});

describe('provisioning', () => {
  it('makes 160-bit Base32 secrets, new every time', () => {
    expect(SECRET).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(SECRET);
  });

  it('names Coinfair and the username in the otpauth URL', () => {
    const text = otpauthUrl('satoshi', SECRET);
    expect(text).toMatch(/^otpauth:\/\/totp\/Coinfair:satoshi\?/);
    const url = new URL(text);
    expect(url.searchParams.get('secret')).toBe(SECRET);
    expect(url.searchParams.get('issuer')).toBe('Coinfair');
  });

  it('draws the QR code as an SVG here, with no address to fetch', () => {
    const svg = qrSvg(otpauthUrl('satoshi', SECRET));
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    expect(svg).not.toContain(SECRET);
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes of ten characters without look-alikes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('hashes what people type the same way, whatever the case, spaces and hyphens', () => {
    expect(normalizeRecoveryCode(' K7PQ2 - xm9rt ')).toBe('k7pq2xm9rt');
    expect(hashRecoveryCode('K7PQ2 XM9RT')).toBe(hashRecoveryCode('k7pq2-xm9rt'));
    expect(hashRecoveryCode('k7pq2-xm9rt')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('k7pq2-xm9rt')).not.toBe(hashRecoveryCode('k7pq2-xm9rs'));
  });
});
