import type { SiteOrigin } from '../../site-origin.ts';
import type { Transaction } from '../context.ts';
import type { TradeChangedPayload } from '../notifications/trade-events.ts';
import type { WebhookOutbox } from './outbox.ts';
import {
  type ChatLine,
  chatEvents,
  type DepositSeen,
  depositEvent,
  type FeedbackGiven,
  feedbackEvent,
  tradeChangeEvents,
} from './payloads.ts';

// What the services that announce changes (trades, chat and attachments, feedback, deposits) call
// inside the transaction of the change: the event's deliveries join the outbox in that transaction.

export type { ChatLine, DepositSeen, FeedbackGiven } from './payloads.ts';

/** What the services that announce changes call inside their transactions. */
export interface WebhookRecorder {
  tradeChanged(tx: Transaction, event: TradeChangedPayload): Promise<void>;
  chatLine(tx: Transaction, line: ChatLine): Promise<void>;
  feedback(tx: Transaction, feedback: FeedbackGiven): Promise<void>;
  deposit(tx: Transaction, deposit: DepositSeen, stage: 'pending' | 'confirmed'): Promise<void>;
}

export function createWebhookRecorder(outbox: WebhookOutbox, siteOrigin: SiteOrigin): WebhookRecorder {
  const url = (path: string) => siteOrigin.url(path);
  return {
    tradeChanged: (tx, event) => outbox.record(tx, tradeChangeEvents(event, url)),
    chatLine: (tx, line) => outbox.record(tx, chatEvents(line, url)),
    feedback: (tx, feedback) => outbox.record(tx, [feedbackEvent(feedback, url)]),
    deposit: (tx, deposit, stage) => outbox.record(tx, [depositEvent(deposit, stage)]),
  };
}
