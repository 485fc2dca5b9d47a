import { newId } from '../../../db/ids.ts';
import type { WebhookEventName } from '../../../src/lib/shared/webhooks.ts';
import type { Transaction } from '../context.ts';
import type { NewDelivery, WebhooksRepository } from './repository.ts';

// The webhooks outbox (issue 21, docs/webhooks.md "Delivery"): the services that change what a
// merchant follows (trades, chat, feedback, deposits) call `record` inside the transaction of the
// change, so a delivery exists exactly when the change committed; the delivery job sends it later,
// retrying for a day. Only people whose enabled webhook follows the event get a row.

/** One event for one person, before it is known whether their webhook follows it. */
export interface WebhookEvent {
  userId: number;
  type: WebhookEventName | 'webhook.test';
  data: Record<string, unknown>;
}

/** The body every delivery carries (Standard Webhooks' recommended shape). */
export interface WebhookBody {
  type: WebhookEvent['type'];
  /** ISO 8601, when the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface WebhookOutbox {
  /** Inside the caller's transaction: a pending delivery for each event its person's webhook follows. */
  record(tx: Transaction, events: WebhookEvent[]): Promise<void>;
  /** Wakes the delivery job once `tx` committed (a delivery queued or requeued outside `record`). */
  wakeAfter(tx: Transaction): void;
  /** `listener` runs after the commit of a transaction that queued deliveries (the job wakes). */
  onRecorded(listener: () => void): () => void;
}

export function deliveryOf(event: WebhookEvent, at: number): NewDelivery {
  const body: WebhookBody = { type: event.type, timestamp: new Date(at).toISOString(), data: event.data };
  return { messageId: newId('msg'), userId: event.userId, event: event.type, payload: JSON.stringify(body), at };
}

export function createWebhookOutbox(repo: WebhooksRepository, now: () => number): WebhookOutbox {
  const listeners = new Set<() => void>();
  const wake = () => {
    for (const listener of listeners) listener();
  };
  return {
    async record(tx, events) {
      if (events.length === 0) return;
      // One read for every event of the change: what its people's enabled webhooks follow.
      const followed = new Set(
        (await repo.following([...new Set(events.map((event) => event.userId))])).map(
          (row) => `${row.userId} ${row.event}`,
        ),
      );
      const at = now();
      const rows = events
        .filter((event) => followed.has(`${event.userId} ${event.type}`))
        .map((event) => deliveryOf(event, at));
      if (rows.length === 0) return;
      await repo.insertDeliveries(rows);
      tx.afterCommit(wake);
    },
    wakeAfter: (tx) => tx.afterCommit(wake),
    onRecorded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
