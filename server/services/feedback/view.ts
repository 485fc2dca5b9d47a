import { createHash } from 'node:crypto';
import type { FeedbackRow, FeedbackType, Rating } from './repository.ts';

export interface FeedbackView {
  /** Stable and opaque: neither the row id nor the trade's hash. */
  id: string;
  /** sell: from the buyer (about the seller); buy: from the seller. */
  type: FeedbackType;
  rating: Rating;
  message: string;
  reply: string | null;
  from: { username: string; avatarUrl: string | null; profile: string };
  paymentMethod: string;
  currency: string;
  /** Unix seconds. */
  createdAt: number;
  updatedAt: number;
  repliedAt: number | null;
}

export const seconds = (ms: number) => Math.floor(ms / 1000);

export function toFeedbackView(row: FeedbackRow): FeedbackView {
  return {
    id: createHash('sha256').update(`${row.tradeHash}:${row.type}`).digest('base64url').slice(0, 16),
    type: row.type,
    rating: row.rating,
    message: row.message,
    reply: row.reply,
    from: { username: row.fromUsername, avatarUrl: row.fromAvatarUrl, profile: `/profile/${row.fromUsername}` },
    paymentMethod: row.paymentMethodName,
    currency: row.fiatCode,
    createdAt: seconds(row.createdAt),
    updatedAt: seconds(row.updatedAt),
    repliedAt: row.repliedAt === null ? null : seconds(row.repliedAt),
  };
}
