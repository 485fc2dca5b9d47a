import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { WebhookEventName } from '../../../src/lib/shared/webhooks.ts';
import type { TradeChangedPayload } from '../notifications/trade-events.ts';
import type { WebhookEvent } from './outbox.ts';

// What each domain change delivers, to whom, with which `data` (the /developers page lists every
// event with an example body from src/lib/shared/webhook-examples.ts, whose shapes
// tests/unit/webhook-examples.test.ts checks against these builders). Pure: the services
// call these inside their transactions and hand the result to the outbox. Absolute links come from
// the configured origin, never from a request.

export type AbsoluteUrl = (path: string) => string;

type Party = 'buyer' | 'seller';

/** The trade as every trade event describes it. */
export function tradeData(event: TradeChangedPayload, url: AbsoluteUrl) {
  return {
    hash: event.tradeHash,
    url: url(event.link),
    status: event.status,
    previousStatus: event.previousStatus,
    buyer: event.buyerUsername,
    seller: event.sellerUsername,
    fiatAmount: event.fiatAmount,
    currency: event.currency,
    cryptoAmount: event.cryptoAmount,
    cryptoCurrency: event.cryptoCurrency,
  };
}

/** Which event a change is for each party (null: none for that party). */
function eventFor(event: TradeChangedPayload, party: Party): WebhookEventName | null {
  switch (event.action) {
    case 'started':
      return 'trade.started';
    case 'paid':
      return 'trade.paid';
    case 'cancelled':
    case 'expired':
      return 'trade.cancelled_or_expired';
    case 'released':
      return party === 'seller' ? 'trade.crypto_sold' : 'trade.crypto_bought';
    case 'disputed':
      return 'trade.dispute_started';
    case 'resolved':
      return 'trade.dispute_resolved';
    case 'reopened':
      return 'trade.reopened';
  }
}

/** A trade's change, to both parties: each learns its own role and who acted. */
export function tradeChangeEvents(event: TradeChangedPayload, url: AbsoluteUrl): WebhookEvent[] {
  const trade = tradeData(event, url);
  const parties: [number, Party][] = [
    [event.buyerId, 'buyer'],
    [event.sellerId, 'seller'],
  ];
  return parties.flatMap(([userId, role]) => {
    const type = eventFor(event, role);
    if (!type) return [];
    const data: Record<string, unknown> = { trade, role, actor: event.actorRole, at: Math.floor(event.at / 1000) };
    if (type === 'trade.cancelled_or_expired') data.reason = event.action;
    if (type === 'trade.dispute_resolved') data.winner = event.status === 'dispute_won_buyer' ? 'buyer' : 'seller';
    return [{ userId, type, data }];
  });
}

export interface ChatLine {
  tradeHash: string;
  buyerId: number;
  sellerId: number;
  authorId: number;
  author: string;
  authorRole: string;
  messageId: number;
  text: string;
  attachment: { id: string; contentType: string } | null;
  at: number;
}

/** A chat line or an attachment, to the parties who did not write it. */
export function chatEvents(line: ChatLine, url: AbsoluteUrl): WebhookEvent[] {
  const type: WebhookEventName = line.attachment ? 'trade.attachment_uploaded' : 'trade.chat_message_received';
  const message = {
    id: line.messageId,
    author: line.author,
    authorRole: line.authorRole,
    text: line.text,
    attachment: line.attachment ? { ...line.attachment, url: url(`/uploads/trades/${line.attachment.id}`) } : null,
    at: Math.floor(line.at / 1000),
  };
  const trade = { hash: line.tradeHash, url: url(`/trade/${line.tradeHash}`) };
  return [line.buyerId, line.sellerId]
    .filter((userId) => userId !== line.authorId)
    .map((userId) => ({ userId, type, data: { trade, message } }));
}

export interface FeedbackGiven {
  tradeHash: string;
  toId: number;
  from: string;
  rating: 'positive' | 'negative';
  message: string;
  at: number;
}

/** A rating, to the person rated. */
export const feedbackEvent = (feedback: FeedbackGiven, url: AbsoluteUrl): WebhookEvent => ({
  userId: feedback.toId,
  type: 'feedback.received',
  data: {
    trade: { hash: feedback.tradeHash, url: url(`/trade/${feedback.tradeHash}`) },
    from: feedback.from,
    rating: feedback.rating,
    message: feedback.message,
    at: Math.floor(feedback.at / 1000),
  },
});

export interface DepositSeen {
  userId: number;
  publicId: string;
  currency: 'BTC' | 'USDT';
  network: string;
  amount: number;
  txid: string | null;
  confirmations: number;
  requiredConfirmations: number;
}

/** A deposit seen on the chain (pending) or credited to the wallet (confirmed). */
export const depositEvent = (deposit: DepositSeen, stage: 'pending' | 'confirmed'): WebhookEvent => ({
  userId: deposit.userId,
  type: stage === 'pending' ? 'wallet.deposit_pending' : 'wallet.deposit_confirmed',
  data: {
    deposit: {
      id: deposit.publicId,
      currency: deposit.currency,
      network: deposit.network,
      amount: fromMinorUnits(deposit.amount, CRYPTO_DECIMALS[deposit.currency]),
      txid: deposit.txid,
      confirmations: deposit.confirmations,
      requiredConfirmations: deposit.requiredConfirmations,
    },
  },
});
