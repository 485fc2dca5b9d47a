import { createHash } from 'node:crypto';
import type { TradeStatus } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { AuthState } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { FeedbackRepository, FeedbackRow, FeedbackType, Rating } from './repository.ts';

// Feedback after a trade (spec sections 3, 4 and 7 "Feedback"; docs/decisions.md 2026-11-24
// "Feedback"): each party rates the other once per trade, may change it for 30 days, and the
// person rated replies once. The users' counters move in the rating's own transaction, so they
// always equal the rows; the event goes out on the internal `trades` channel after the commit.

/** The internal bus channel the notifications service follows (the trades service's too). */
export const FEEDBACK_CHANNEL = 'trades';
/** Statuses that can be rated: coins moved to the buyer, or a moderator decided the dispute. */
export const RATEABLE_STATUSES: readonly TradeStatus[] = ['released', 'dispute_won_buyer', 'dispute_won_seller'];
/** How long after the first rating it may still be replaced. */
export const FEEDBACK_EDIT_WINDOW_MS = 30 * 86_400_000;
export const FEEDBACK_MESSAGE_MAX = 500;
export const FEATURE_REQUEST_MAX = 2000;
/** Feature requests per person and day: the form is for ideas, not for a flood. */
export const FEATURE_REQUESTS_PER_DAY = 10;
/** Spec section 9: page size 50. */
export const FEEDBACK_PAGE_SIZE = 50;

export interface FeedbackEvent {
  tradeHash: string;
  fromId: number;
  toId: number;
  fromUsername: string;
  rating: Rating;
  link: string;
  /** Unix ms. */
  at: number;
}

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

const seconds = (ms: number) => Math.floor(ms / 1000);

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

/** Trimmed text within 1…max characters, or the field's validation error. */
function boundedText(field: string, value: string, max: number, key: string): string {
  const text = value.trim();
  if (text.length === 0 || text.length > max) {
    throw invalidInput([{ field, message: `Write 1 to ${max} characters.`, key, params: { max } }]);
  }
  return text;
}

export function createFeedbackService({
  repo,
  bus,
  now,
}: {
  repo: FeedbackRepository;
  bus: EventBus;
  now: () => number;
}) {
  const client = repo.db.$client;

  /** The trade and the reader's side of it; 404 for anyone who is not a party. */
  const partyTrade = (hash: string, userId: number) => {
    const trade = repo.tradeByHash(hash);
    if (!trade || (trade.buyerId !== userId && trade.sellerId !== userId)) throw notFound('Trade', 'id');
    const isBuyer = trade.buyerId === userId;
    return {
      trade,
      otherId: isBuyer ? trade.sellerId : trade.buyerId,
      otherUsername: isBuyer ? trade.sellerUsername : trade.buyerUsername,
      type: (isBuyer ? 'sell' : 'buy') as FeedbackType,
    };
  };

  const editableUntil = (row: FeedbackRow) => row.createdAt + FEEDBACK_EDIT_WINDOW_MS;

  return {
    /** Both sides' feedback of a trade, for its parties, and what the reader may still do. */
    ofTrade({ auth, hash }: { auth: AuthState; hash: string }) {
      const { trade } = partyTrade(hash, auth.user.id);
      const rows = repo.ofTrade(trade.id);
      const given = rows.find((r) => r.fromId === auth.user.id);
      const received = rows.find((r) => r.toId === auth.user.id);
      const at = now();
      const rateable = RATEABLE_STATUSES.includes(trade.status);
      return {
        given: given ? toFeedbackView(given) : null,
        received: received ? toFeedbackView(received) : null,
        canGive: rateable && (!given || at < editableUntil(given)),
        /** Unix seconds until which the given rating may be replaced; null before one is given. */
        editableUntil: given ? seconds(editableUntil(given)) : null,
        canReply: received !== undefined && received.reply === null,
      };
    },

    /**
     * Rates the other party. The first rating counts; a second within 30 days replaces it (the
     * counters move from the old rating to the new one in the same transaction), later ones are
     * refused. Cancelled and running trades cannot be rated (docs/decisions.md).
     */
    give({ auth, hash, rating, message }: { auth: AuthState; hash: string; rating: Rating; message: string }) {
      const text = boundedText('message', message, FEEDBACK_MESSAGE_MAX, 'feedback_message_length');
      const { trade, otherId, otherUsername, type } = partyTrade(hash, auth.user.id);
      const at = now();
      const saved = client
        .transaction(() => {
          // Read again inside the write lock: a status or an earlier rating that changed meanwhile counts.
          const current = repo.tradeByHash(hash);
          if (!current || !RATEABLE_STATUSES.includes(current.status)) {
            throw new AppError(
              'FORBIDDEN',
              'Feedback can be left once the coins are released or a dispute is decided.',
              {
                key: 'feedback_not_rateable',
              },
            );
          }
          const previous = repo.ofTrade(trade.id).find((r) => r.fromId === auth.user.id);
          if (!previous) {
            repo.insert({ tradeId: trade.id, fromId: auth.user.id, toId: otherId, type, rating, message: text, at });
            repo.count(otherId, rating === 'positive' ? 1 : 0, rating === 'negative' ? 1 : 0);
          } else {
            if (at >= editableUntil(previous)) {
              throw new AppError('FORBIDDEN', 'Feedback can be changed for 30 days after it was left.', {
                key: 'feedback_locked',
              });
            }
            repo.replace({ id: previous.id, rating, message: text, at });
            if (previous.rating !== rating) {
              const step = (r: Rating) => (r === rating ? 1 : 0) - (r === previous.rating ? 1 : 0);
              repo.count(otherId, step('positive'), step('negative'));
            }
          }
          return repo.ofTrade(trade.id).find((r) => r.fromId === auth.user.id) as FeedbackRow;
        })
        .immediate();
      const event: FeedbackEvent = {
        tradeHash: trade.hash,
        fromId: auth.user.id,
        toId: otherId,
        fromUsername: auth.user.username,
        rating,
        link: `/profile/${otherUsername}`,
        at,
      };
      bus.publish(FEEDBACK_CHANNEL, { type: 'trade.feedback', payload: event });
      return toFeedbackView(saved);
    },

    /** The person rated answers the feedback about them, once. */
    reply({ auth, hash, reply }: { auth: AuthState; hash: string; reply: string }) {
      const text = boundedText('reply', reply, FEEDBACK_MESSAGE_MAX, 'feedback_reply_length');
      const { trade } = partyTrade(hash, auth.user.id);
      const received = repo.ofTrade(trade.id).find((r) => r.toId === auth.user.id);
      if (!received) throw notFound('Feedback', 'id');
      if (!repo.reply(received.id, text, now())) {
        throw new AppError('FORBIDDEN', 'You have replied to this feedback already.', { key: 'feedback_reply_once' });
      }
      return toFeedbackView(repo.ofTrade(trade.id).find((r) => r.id === received.id) as FeedbackRow);
    },

    /**
     * A person's feedback, newest first (spec section 7, users/{username}/feedbacks): the totals
     * of the chosen side (`offer_type`) and one page of the chosen rating.
     */
    ofUser({
      username,
      page,
      offerType,
      rating,
    }: {
      username: string;
      page: number;
      offerType: FeedbackType | 'all';
      rating: Rating | 'all';
    }) {
      const user = repo.userByName(username);
      if (!user || user.status === 'banned') throw notFound('User', 'username');
      const type = offerType === 'all' ? null : offerType;
      const rows = repo.list(
        user.id,
        type,
        rating === 'all' ? null : rating,
        FEEDBACK_PAGE_SIZE + 1,
        (page - 1) * FEEDBACK_PAGE_SIZE,
      );
      const hasMore = rows.length > FEEDBACK_PAGE_SIZE;
      const query = new URLSearchParams({ f_page: String(page + 1), offer_type: offerType, feedback: rating });
      return {
        ...repo.totals(user.id, type),
        data: rows.slice(0, FEEDBACK_PAGE_SIZE).map(toFeedbackView),
        nextPageUrl: hasMore ? `/rest/v1/users/${encodeURIComponent(user.username)}/feedbacks?${query}` : null,
      };
    },

    /** The feature-request form (spec sections 4 and 7): stored for the team, a few a day. */
    featureRequest({ auth, text, locale }: { auth: AuthState; text: string; locale: string }) {
      const body = boundedText('text', text, FEATURE_REQUEST_MAX, 'feature_request_length');
      const at = now();
      if (repo.featureRequestsSince(auth.user.id, at - 86_400_000) >= FEATURE_REQUESTS_PER_DAY) {
        throw new AppError('RATE_LIMITED', 'You have sent many requests today. Try again tomorrow.', {
          key: 'feature_request_limit',
          retryAfterSeconds: 3600,
        });
      }
      repo.insertFeatureRequest({ userId: auth.user.id, text: body, locale, at });
      return { success: true };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
