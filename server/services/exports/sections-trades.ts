import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { type ExportRange, iso, isoOrNull, sqlSection } from './section.ts';

// The trade sections: the person's trades with their fiat values, the chat of those trades (what
// the person could read on the trade page: every line but the moderators' private ones, their
// own included) and the feedback they gave and received.

const crypto = (minor: number, currency: LedgerCurrency) => fromMinorUnits(Number(minor), CRYPTO_DECIMALS[currency]);
const bothSides = ({ userId, fromAt, toAt }: ExportRange) => [userId, userId, fromAt, toAt];

export const TRADE_COLUMNS = [
  'trade',
  'started_at',
  'role',
  'counterparty',
  'status',
  'crypto_currency',
  'crypto_amount',
  'seller_fee',
  'fiat_currency',
  'fiat_amount',
  'price_per_coin',
  'usd_value',
  'payment_method',
  'paid_at',
  'ended_at',
] as const;

interface TradeRow {
  id: number;
  hash: string;
  startedAt: number;
  buyerId: number;
  buyer: string;
  seller: string;
  status: string;
  crypto: LedgerCurrency;
  cryptoAmount: number;
  feeAmount: number;
  fiatCode: string;
  fiatDigits: number;
  fiatAmount: number;
  price: number;
  usdCents: number;
  paymentMethod: string;
  paidAt: number | null;
  endedAt: number | null;
}

export const tradesSection = sqlSection<TradeRow>({
  file: 'trades',
  select: `SELECT t.id AS id, t.hash AS hash, t.started_at AS startedAt, t.buyer_id AS buyerId,
    bu.username AS buyer, su.username AS seller, t.status AS status, t.crypto_code AS crypto,
    t.crypto_amount AS cryptoAmount, t.fee_amount AS feeAmount, c.code AS fiatCode, c.minor_units AS fiatDigits,
    t.fiat_amount_minor AS fiatAmount, t.price_minor AS price, t.usd_amount_cents AS usdCents,
    pm.name AS paymentMethod, t.paid_at AS paidAt, t.ended_at AS endedAt`,
  from: `FROM trades t
    JOIN users bu ON bu.id = t.buyer_id
    JOIN users su ON su.id = t.seller_id
    JOIN fiat_currencies c ON c.id = t.fiat_currency_id
    JOIN payment_methods pm ON pm.id = t.payment_method_id
    WHERE (t.buyer_id = ? OR t.seller_id = ?) AND t.started_at >= ? AND t.started_at < ?`,
  idColumn: 't.id',
  params: bothSides,
  cells: (r, range) => {
    const buying = Number(r.buyerId) === range.userId;
    const digits = Number(r.fiatDigits);
    return [
      r.hash,
      iso(r.startedAt),
      buying ? 'buyer' : 'seller',
      buying ? r.seller : r.buyer,
      r.status,
      r.crypto,
      crypto(r.cryptoAmount, r.crypto),
      crypto(r.feeAmount, r.crypto),
      r.fiatCode,
      fromMinorUnits(Number(r.fiatAmount), digits),
      fromMinorUnits(Number(r.price), digits),
      fromMinorUnits(Number(r.usdCents), 2),
      r.paymentMethod,
      isoOrNull(r.paidAt),
      isoOrNull(r.endedAt),
    ];
  },
});

export const CHAT_COLUMNS = ['time', 'trade', 'author', 'author_role', 'message', 'attachment'] as const;

interface MessageRow {
  id: number;
  at: number;
  trade: string;
  author: string | null;
  role: string;
  body: string;
  attachment: string | null;
}

export const chatSection = sqlSection<MessageRow>({
  file: 'chat',
  select: `SELECT m.id AS id, m.created_at AS at, t.hash AS trade, u.username AS author, m.author_role AS role,
    m.body AS body, a.public_id AS attachment`,
  from: `FROM trade_messages m
    JOIN trades t ON t.id = m.trade_id
    LEFT JOIN users u ON u.id = m.author_id
    LEFT JOIN trade_attachments a ON a.id = m.attachment_id
    WHERE (t.buyer_id = ? OR t.seller_id = ?) AND (m.is_for_moderator = 0 OR m.author_id = ?)
      AND m.created_at >= ? AND m.created_at < ?`,
  idColumn: 'm.id',
  params: ({ userId, fromAt, toAt }) => [userId, userId, userId, fromAt, toAt],
  cells: (r) => [iso(r.at), r.trade, r.author, r.role, r.body, r.attachment],
});

export const FEEDBACK_COLUMNS = [
  'time',
  'direction',
  'trade',
  'counterparty',
  'type',
  'rating',
  'message',
  'reply',
  'replied_at',
] as const;

interface FeedbackRow {
  id: number;
  at: number;
  trade: string;
  counterparty: string;
  type: string;
  rating: string;
  message: string;
  reply: string | null;
  repliedAt: number | null;
}

const feedbackSection = (direction: 'given' | 'received') => {
  const [mine, theirs] = direction === 'given' ? ['from_id', 'to_id'] : ['to_id', 'from_id'];
  return sqlSection<FeedbackRow>({
    file: 'feedback',
    select: `SELECT f.id AS id, f.created_at AS at, t.hash AS trade, u.username AS counterparty, f.type AS type,
      f.rating AS rating, f.message AS message, f.reply AS reply, f.replied_at AS repliedAt`,
    from: `FROM trade_feedback f
      JOIN trades t ON t.id = f.trade_id
      JOIN users u ON u.id = f.${theirs}
      WHERE f.${mine} = ? AND f.created_at >= ? AND f.created_at < ?`,
    idColumn: 'f.id',
    params: ({ userId, fromAt, toAt }) => [userId, fromAt, toAt],
    cells: (r) => [
      iso(r.at),
      direction,
      r.trade,
      r.counterparty,
      r.type,
      r.rating,
      r.message,
      r.reply,
      isoOrNull(r.repliedAt),
    ],
  });
};

export const feedbackGivenSection = feedbackSection('given');
export const feedbackReceivedSection = feedbackSection('received');
