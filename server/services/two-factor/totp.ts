import { generateSecret, generateURI, verifySync } from 'otplib';
import { renderSVG } from 'uqr';

// RFC 6238 time-based codes as authenticator apps make them: SHA-1, 6 digits, 30-second steps.
// Time always comes from the caller (the service's `now`), never from the library's own clock, so
// tests and the app agree on which step is current.

export const STEP_SECONDS = 30;
/** Steps accepted either side of the current one: phones whose clocks run a little off. */
export const DRIFT_STEPS = 1;
/** The name authenticator apps show above the code (src/lib/site.ts needs Vite, so not imported). */
export const ISSUER = 'Coinfair';

const TOTP_PATTERN = /^\d{6}$/;

export function stepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / STEP_SECONDS);
}

/** True when the text has the shape of a TOTP code (recovery codes never do). */
export function looksLikeTotp(code: string): boolean {
  return TOTP_PATTERN.test(code);
}

/** 160 random bits in Base32, the length authenticator apps expect. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function otpauthUrl(label: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label, secret });
}

/** The provisioning URL as an SVG QR code, drawn here: the secret never leaves for a QR service. */
export function qrSvg(url: string): string {
  return renderSVG(url, { ecc: 'M', border: 2, pixelSize: 6 });
}

/**
 * The time step `code` belongs to, or null when it matches none of the current step ±DRIFT_STEPS
 * that is later than `lastUsedStep`. A step at or before the last accepted one is refused: each
 * code works once, and so does every older one an observer might have seen.
 */
export function matchTotp(secret: string, code: string, nowMs: number, lastUsedStep: number | null): number | null {
  if (!TOTP_PATTERN.test(code)) return null;
  const epoch = Math.floor(nowMs / 1000);
  // otplib throws when afterTimeStep lies beyond the window (a clock that went back): nothing in
  // the window can be newer then, so the answer is simply no.
  if (lastUsedStep !== null && lastUsedStep >= stepAt(nowMs) + DRIFT_STEPS) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch,
    period: STEP_SECONDS,
    // In seconds: ±one period reaches exactly the neighbouring steps, wherever in its step `epoch` is.
    epochTolerance: DRIFT_STEPS * STEP_SECONDS,
    ...(lastUsedStep !== null ? { afterTimeStep: lastUsedStep } : {}),
  });
  // otplib types the HOTP and TOTP answers as one union; only the TOTP one carries timeStep.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
