import {
  PREVIOUS_SECRET_SECONDS,
  WEBHOOK_EVENTS,
  type WebhookEventName,
  type WebhookView,
} from '../../../src/lib/shared/webhooks.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { webhookUrl } from './address-guard.ts';
import { ensureWebhook, merchantOf, type WebhooksDeps } from './deps.ts';
import type { WebhookRow } from './repository.ts';
import { newWebhookSecret } from './signing.ts';
import { challengeUrl, VERIFIED_FOR_MS } from './verify.ts';

// The merchant's webhook (spec sections 3-5 "Webhook", 7 "Webhooks"): read it, save a URL that
// passed its challenge, remove it, choose its events, rotate its secret.

/** Spec section 4: a URL and enabled is enabled, a URL not enabled is disabled, no URL is initial. */
export function webhookView(row: WebhookRow, events: readonly string[], now: number): WebhookView {
  const checked = new Set(events);
  const previousLive = row.previousSecret !== null && (row.previousSecretUntil ?? 0) > now;
  return {
    url: row.url,
    enabled: row.enabled === 1,
    status: row.url === null ? 'initial' : row.enabled === 1 ? 'enabled' : 'disabled',
    disabledReason: row.disabledReason,
    secret: row.secret,
    previousSecretExpiresAt: previousLive ? Math.floor((row.previousSecretUntil as number) / 1000) : null,
    events: WEBHOOK_EVENTS.map((name) => ({ name, checked: checked.has(name) })),
    notificationType: 'standard_webhooks',
  };
}

async function viewOf(deps: WebhooksDeps, userId: number): Promise<WebhookView> {
  const row = await ensureWebhook(deps, userId);
  return webhookView(row, await deps.repo.events(userId), deps.now());
}

export const readWebhook = (deps: WebhooksDeps, ctx: PersonContext) => viewOf(deps, merchantOf(ctx));

/**
 * `POST /rest/v1/webhooks`: saves the URL once it passed its challenge (within 15 minutes, else
 * the challenge runs now) and enables it. A first save with no event chosen follows all of them.
 */
export async function saveWebhook(deps: WebhooksDeps, ctx: PersonContext, input: { url: string }) {
  const userId = merchantOf(ctx);
  const url = webhookUrl(input.url).href;
  const row = await ensureWebhook(deps, userId);
  const fresh = row.verifiedUrl === url && (row.verifiedAt ?? 0) > deps.now() - VERIFIED_FOR_MS;
  if (!fresh) await challengeUrl(deps, userId, url);
  await immediate(deps.repo.db, async () => {
    await deps.repo.save(userId, url, deps.now());
    if ((await deps.repo.events(userId)).length === 0)
      for (const event of WEBHOOK_EVENTS) await deps.repo.setEvent(userId, event, true);
  });
  return viewOf(deps, userId);
}

/** `DELETE /rest/v1/webhooks`: back to initial, every event unchecked, nothing more sent. */
export async function removeWebhook(deps: WebhooksDeps, ctx: PersonContext) {
  const userId = merchantOf(ctx);
  await ensureWebhook(deps, userId);
  await immediate(deps.repo.db, async () => {
    await deps.repo.remove(userId, deps.now());
    await deps.repo.uncheckAll(userId);
    await deps.repo.dropPending(userId, 'the webhook was removed');
  });
  return viewOf(deps, userId);
}

/** `POST /rest/v1/webhooks/events`: checks and unchecks the named events; the others stay. */
export async function selectEvents(
  deps: WebhooksDeps,
  ctx: PersonContext,
  input: { events: { name: WebhookEventName; checked: boolean }[] },
) {
  const userId = merchantOf(ctx);
  await ensureWebhook(deps, userId);
  await immediate(deps.repo.db, async () => {
    for (const { name, checked } of input.events) await deps.repo.setEvent(userId, name, checked);
  });
  return viewOf(deps, userId);
}

/** `POST /rest/v1/webhooks/secret`: a new secret; the old one keeps signing beside it for 24 hours. */
export async function rotateSecret(deps: WebhooksDeps, ctx: PersonContext) {
  const userId = merchantOf(ctx);
  await ensureWebhook(deps, userId);
  const at = deps.now();
  await deps.repo.rotate(userId, newWebhookSecret(), at + PREVIOUS_SECRET_SECONDS * 1000, at);
  return viewOf(deps, userId);
}

/**
 * `POST /rest/v1/merchants/join`: a person whose identity is verified turns their account into a
 * merchant account (webhooks, and the API for bots). Idempotent.
 */
export async function becomeMerchant(deps: WebhooksDeps, ctx: PersonContext) {
  const { user } = ctx.auth;
  if (user.idVerifiedAt === null)
    throw new AppError('FORBIDDEN', 'Verify your identity first; merchant accounts are for verified people.', {
      key: 'merchant_needs_id',
    });
  await deps.repo.setMerchant(user.id);
  return { isMerchant: true };
}
