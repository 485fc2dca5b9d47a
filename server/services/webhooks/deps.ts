import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { AddressGuard } from './address-guard.ts';
import type { WebhookOutbox } from './outbox.ts';
import type { WebhookRow, WebhooksRepository } from './repository.ts';
import { newWebhookSecret } from './signing.ts';
import type { WebhookPost } from './transport.ts';

/** What every verb of the webhooks service (webhooks.ts wires them) is made from. */
export interface WebhooksDeps {
  repo: WebhooksRepository;
  outbox: WebhookOutbox;
  /** Vets the address a URL resolves to (no private networks unless WEBHOOKS_ALLOW_LOCAL=on). */
  guard: AddressGuard;
  post: WebhookPost;
  now: () => number;
}

/** Spec section 6: merchants get webhooks. */
export function merchantOf(ctx: PersonContext): number {
  if (!ctx.auth.user.isMerchant)
    throw new AppError('FORBIDDEN', 'Webhooks are for merchant accounts.', { key: 'webhooks_merchants_only' });
  return ctx.auth.user.id;
}

/** The person's webhook row, created with its first secret on first use. */
export async function ensureWebhook(deps: Pick<WebhooksDeps, 'repo' | 'now'>, userId: number): Promise<WebhookRow> {
  const existing = await deps.repo.webhook(userId);
  if (existing) return existing;
  await deps.repo.create(userId, newWebhookSecret(), deps.now());
  return (await deps.repo.webhook(userId)) as WebhookRow;
}
