import { WEBHOOK_RETRY_SECONDS } from '../../../src/lib/shared/webhooks.ts';
import { createJob, type JobObserver } from '../../jobs/every.ts';
import { immediate, type ServiceContext, systemContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { NotifyInput } from '../notifications/notifications.ts';
import type { WebhooksDeps } from './deps.ts';
import type { AttemptOutcome, DeliveryRow } from './repository.ts';
import { signatureHeaders } from './signing.ts';

// The job that empties the webhooks outbox (issue 21, docs/webhooks.md "Delivery"), run by the
// jobs leader (server/backend.ts): each due delivery is claimed, signed at the moment it is sent,
// posted, and finished. A failure waits the next step of WEBHOOK_RETRY_SECONDS (a day in all);
// after the last one the delivery has failed, the webhook is disabled, what it still had queued is
// dropped and the merchant is notified, in one transaction.
//
// At least once: a delivery a stopped process had claimed goes again at the next start, with the
// same `webhook-id`, which receivers use to drop repeats (Standard Webhooks' advice).

const BATCH = 20;
/** Merchants served at once; a slow receiver holds one of these for at most the transport's timeout per delivery. */
const PARALLEL = 8;
/** A claim older than this belonged to a process that stopped mid-send. */
const STALE_CLAIM_MS = 60_000;

export interface DeliveryJobDeps extends Pick<WebhooksDeps, 'repo' | 'guard' | 'post' | 'now' | 'outbox'> {
  notify(ctx: ServiceContext, input: NotifyInput): Promise<unknown>;
  log: (message: string, error?: unknown) => void;
}

/** When the attempt after `attempts` failed ones goes, or null when there is none left. */
export function nextAttemptAt(attempts: number, at: number): number | null {
  const wait = WEBHOOK_RETRY_SECONDS[attempts - 1];
  return wait === undefined ? null : at + wait * 1000;
}

/** Posts one claimed delivery to its webhook; the outcome, and whether it arrived. */
async function attempt(deps: DeliveryJobDeps, row: DeliveryRow): Promise<{ ok: boolean; outcome: AttemptOutcome }> {
  const { repo, guard, post, now } = deps;
  const webhook = await repo.webhook(row.userId);
  const at = now();
  if (!webhook?.url || webhook.enabled !== 1)
    return { ok: false, outcome: { at, responseStatus: null, latencyMs: 0, error: 'the webhook is not enabled' } };
  let target: Awaited<ReturnType<typeof guard.resolve>>;
  try {
    // Resolved and vetted again at every attempt: the host's address may have changed since.
    target = await guard.resolve(new URL(webhook.url));
  } catch (error) {
    const message = error instanceof AppError ? error.message : 'the address could not be resolved';
    return { ok: false, outcome: { at, responseStatus: null, latencyMs: 0, error: message } };
  }
  const result = await post(target, row.payload, signatureHeaders(webhook, row.messageId, at, row.payload));
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const error = ok
    ? null
    : (result.error ?? (result.status !== null && result.status < 400 ? 'redirect (not followed)' : 'non-2xx answer'));
  return { ok, outcome: { at, responseStatus: result.status, latencyMs: result.latencyMs, error } };
}

/** The last retry failed: the delivery fails, the webhook stops, the merchant hears of it. */
async function giveUp(deps: DeliveryJobDeps, row: DeliveryRow, outcome: AttemptOutcome): Promise<void> {
  const { repo, notify, now } = deps;
  await immediate(repo.db, async (tx) => {
    await repo.attemptFailed(row.id, outcome, null);
    if (!(await repo.disable(row.userId, now()))) return;
    await repo.dropPending(row.userId, 'the webhook was disabled after a day of failed deliveries');
    await notify(
      { ...systemContext('webhooks'), tx },
      {
        userId: row.userId,
        type: 'webhook_disabled',
        link: '/webhooks',
        message: { key: 'webhook_disabled' },
        subtext: { key: 'reason', params: { reason: outcome.error ?? String(outcome.responseStatus) } },
      },
    );
  });
}

async function deliver(deps: DeliveryJobDeps, row: DeliveryRow): Promise<void> {
  const { repo, now, log } = deps;
  if (!(await repo.claim(row.id, now()))) return;
  try {
    const { ok, outcome } = await attempt(deps, row);
    if (ok) await repo.delivered(row.id, outcome);
    else {
      const next = nextAttemptAt(row.attempts + 1, outcome.at);
      if (next === null) await giveUp(deps, row, outcome);
      else await repo.attemptFailed(row.id, outcome, next);
    }
  } catch (error) {
    // Left `sending`: taken back as stale and tried again.
    log(`webhooks: delivery ${row.messageId} could not be finished`, error);
  }
}

/**
 * One pass over what is due; answers how many deliveries it tried. Merchants are served in
 * parallel, each one's deliveries in the order they were queued, so a trade's events normally
 * arrive in order (a retry does not hold the others back: order is not promised, the timestamp is).
 */
async function runOnce(deps: DeliveryJobDeps): Promise<number> {
  const due = await deps.repo.due(deps.now(), BATCH);
  const byMerchant = new Map<number, DeliveryRow[]>();
  for (const row of due) byMerchant.set(row.userId, [...(byMerchant.get(row.userId) ?? []), row]);
  const queues = [...byMerchant.values()];
  let next = 0;
  const worker = async () => {
    while (next < queues.length) for (const row of queues[next++] as DeliveryRow[]) await deliver(deps, row);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queues.length) }, worker));
  return due.length;
}

export function createWebhookDeliveryJob(deps: DeliveryJobDeps) {
  const { repo, now, log } = deps;
  // Woken while a pass runs: one more pass after it, for what was queued meanwhile.
  const job = createJob(
    'webhook-deliveries',
    () => repo.releaseStale(now() - STALE_CLAIM_MS, now()).then(() => runOnce(deps)),
    {
      onError: (error) => log('webhooks: the delivery job failed', error),
      whenBusy: 'again',
    },
  );

  return {
    /** One pass (tests call it; the timer and the outbox's wake-ups do otherwise). */
    runOnce: async () => (await job.run()) ?? 0,
    /** Runs every `pollMs` and whenever this process queued a delivery; stop() waits for the pass in flight. */
    start(pollMs: number, observer?: JobObserver): () => Promise<void> {
      const stop = job.start(pollMs, { observer });
      const unsubscribe = deps.outbox.onRecorded(() => void job.run());
      return async () => {
        unsubscribe();
        await stop();
      };
    },
  };
}

export type WebhookDeliveryJob = ReturnType<typeof createWebhookDeliveryJob>;
