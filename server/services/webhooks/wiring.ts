import type { DatabaseLike } from '../../../db/database.ts';
import type { ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/notifications.ts';
import { createAddressGuard } from './address-guard.ts';
import { createWebhookDeliveryJob } from './deliveries.ts';
import { createWebhookOutbox, type WebhookOutbox } from './outbox.ts';
import { createWebhooksRepository } from './repository.ts';
import { postWebhook, type WebhookPost } from './transport.ts';
import { createWebhooksService } from './webhooks.ts';

// How server/services/container.ts wires webhooks (issue 21): the outbox first (the trades, feedback
// and chain services write into it through recorder.ts), then the service and its delivery job,
// which tell merchants through notifications.

export function createWebhooksOutbox(db: DatabaseLike, now: () => number) {
  return createWebhookOutbox(createWebhooksRepository(db), now);
}

interface WebhooksWiring {
  db: DatabaseLike;
  outbox: WebhookOutbox;
  allowLocal: boolean;
  now: () => number;
  notify(ctx: ServiceContext, input: NotifyInput): Promise<unknown>;
  log: (message: string, error?: unknown) => void;
  post?: WebhookPost;
}

/** The merchant's webhook service and the job that delivers (server/backend.ts starts it). */
export function createWebhookServices(wiring: WebhooksWiring) {
  const { db, outbox, allowLocal, now, notify, log, post = postWebhook } = wiring;
  const deps = { repo: createWebhooksRepository(db), outbox, guard: createAddressGuard({ allowLocal }), post, now };
  return {
    webhooks: createWebhooksService(deps),
    webhookDeliveries: createWebhookDeliveryJob({ ...deps, notify, log }),
  };
}
