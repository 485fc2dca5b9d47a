import { WEBHOOK_TEST_EVENT, type WebhookDeliveryView } from '../../../src/lib/shared/webhooks.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { merchantOf, type WebhooksDeps } from './deps.ts';
import { deliveryOf } from './outbox.ts';
import type { DeliveryRow } from './repository.ts';

// The delivery log of the /webhooks screen (issue 21): what was sent, how each went, a resend per
// delivery, and a test event on demand.

export const DELIVERIES_PAGE_SIZE = 50;

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export function deliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.messageId,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    error: row.error,
    createdAt: seconds(row.createdAt) as number,
    lastAttemptAt: seconds(row.lastAttemptAt),
    nextAttemptAt: row.status === 'pending' ? seconds(row.nextAttemptAt) : null,
    deliveredAt: seconds(row.deliveredAt),
  };
}

/** `GET /rest/v1/webhooks/deliveries`: newest first, 50 a page; `before` is the last id of the previous page. */
export async function listDeliveries(deps: WebhooksDeps, ctx: PersonContext, input: { before?: string }) {
  const userId = merchantOf(ctx);
  let below = Number.MAX_SAFE_INTEGER;
  if (input.before) {
    const last = await deps.repo.deliveryOf(userId, input.before);
    if (!last) throw notFound('Delivery', 'before');
    below = last.id;
  }
  const rows = await deps.repo.deliveries(userId, below, DELIVERIES_PAGE_SIZE + 1);
  const page = rows.slice(0, DELIVERIES_PAGE_SIZE);
  return {
    data: page.map(deliveryView),
    meta: { next: rows.length > DELIVERIES_PAGE_SIZE ? (page.at(-1)?.messageId ?? null) : null },
  };
}

const notEnabled = () =>
  new AppError('WEBHOOK_NOT_ENABLED', 'Save a webhook URL that passes its check first.', {
    key: 'webhook_not_enabled',
  });

/** `POST /rest/v1/webhooks/deliveries/{id}/resend`: a delivered or failed one goes again, same id. */
export async function resendDelivery(deps: WebhooksDeps, ctx: PersonContext, input: { id: string }) {
  const userId = merchantOf(ctx);
  const webhook = await deps.repo.webhook(userId);
  if (webhook?.enabled !== 1) throw notEnabled();
  const row = await deps.repo.deliveryOf(userId, input.id);
  if (!row) throw notFound('Delivery', 'id');
  // A delivery still pending or being sent goes anyway: answered as it is.
  await immediate(deps.repo.db, async (tx) => {
    if (await deps.repo.resend(row.id, deps.now())) deps.outbox.wakeAfter(tx);
  });
  return deliveryView((await deps.repo.deliveryOf(userId, input.id)) as DeliveryRow);
}

/** `POST /rest/v1/webhooks/test`: a `webhook.test` delivery now, whatever events are chosen. */
export async function sendTest(deps: WebhooksDeps, ctx: PersonContext) {
  const userId = merchantOf(ctx);
  const webhook = await deps.repo.webhook(userId);
  if (webhook?.enabled !== 1) throw notEnabled();
  const delivery = deliveryOf(
    {
      userId,
      type: WEBHOOK_TEST_EVENT,
      data: { message: 'A test event from Coinfair.', username: ctx.auth.user.username },
    },
    deps.now(),
  );
  await immediate(deps.repo.db, async (tx) => {
    await deps.repo.insertDeliveries([delivery]);
    deps.outbox.wakeAfter(tx);
  });
  return deliveryView((await deps.repo.delivery(delivery.messageId)) as DeliveryRow);
}
