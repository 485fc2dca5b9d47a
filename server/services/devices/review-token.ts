import { createHash } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { DeviceReviewParts } from './types.ts';

export const REVIEW_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Device ids are hex (spec section 5): 256 random bits. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const invalidLink = () => new AppError('NOT_FOUND', 'This device review link is invalid, used or expired.');

/** The pending device behind a live review link, or 404. */
export async function pendingDevice({ repo, now }: DeviceReviewParts, token: string) {
  const found = TOKEN_PATTERN.test(token)
    ? await repo.pendingByToken(hashToken(token), now() - REVIEW_TOKEN_TTL_MS)
    : undefined;
  if (!found) throw invalidLink();
  return found;
}
