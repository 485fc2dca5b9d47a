import { bindVerb, type PersonContext } from '../context.ts';
import type { WebhooksDeps } from './deps.ts';
import { listDeliveries, resendDelivery, sendTest } from './log.ts';
import { becomeMerchant, readWebhook, removeWebhook, rotateSecret, saveWebhook, selectEvents } from './settings.ts';
import { verifyWebhook } from './verify.ts';

// Merchants' webhooks (issue 21, docs/webhooks.md): the webhook and its challenge, its events and
// secret, the delivery log, resends and test events. The outbox other services write into is
// outbox.ts; the job that sends is deliveries.ts. One verb per file.

export type { WebhooksDeps } from './deps.ts';

export function createWebhooksService(deps: WebhooksDeps) {
  return {
    read: (ctx: PersonContext) => readWebhook(deps, ctx),
    verify: bindVerb(deps, verifyWebhook),
    save: bindVerb(deps, saveWebhook),
    remove: (ctx: PersonContext) => removeWebhook(deps, ctx),
    selectEvents: bindVerb(deps, selectEvents),
    rotateSecret: (ctx: PersonContext) => rotateSecret(deps, ctx),
    deliveries: bindVerb(deps, listDeliveries),
    resend: bindVerb(deps, resendDelivery),
    sendTest: (ctx: PersonContext) => sendTest(deps, ctx),
    becomeMerchant: (ctx: PersonContext) => becomeMerchant(deps, ctx),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
