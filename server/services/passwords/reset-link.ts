import { createHash } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { PasswordsDeps } from './types.ts';

/** 256 random bits in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const invalidLink = () =>
  new AppError('NOT_FOUND', 'This password reset link is invalid, used or expired. Ask for a new one.', {
    field: 'token',
    key: 'reset_link_invalid',
  });

/** The live link behind a token and its account, or 404 (unknown, used, replaced, expired). */
export async function liveReset({ repo, accounts, now }: PasswordsDeps, token: string) {
  const reset = TOKEN_PATTERN.test(token) ? await repo.liveReset(hashToken(token), now()) : undefined;
  const user = reset && (await accounts.userById(reset.userId));
  // An account closed after the link was sent gets no new password through it.
  if (!reset || !user || user.status === 'banned') throw invalidLink();
  return { reset, user };
}

/** `ada.lovelace@example.org` → `a•••@example.org`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const first = [...email.slice(0, Math.max(at, 0))][0] ?? '';
  return `${first}•••${at >= 0 ? email.slice(at) : ''}`;
}
