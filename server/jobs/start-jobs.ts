import type { Logger } from '../backend.ts';
import type { Config } from '../config.ts';
import { chainPollMs } from '../services/chain/create.ts';
import type { Services } from '../services/container.ts';
import { type JobObserver, unobserved } from './every.ts';

// The jobs the leader runs besides the price feed (server/backend.ts, `leadJobs`): each on its own
// timer (server/jobs/every.ts), each run counted through `observer` (the metrics), each stopped by
// the function this returns when the lead moves or the process ends.

/** The chain, trade-expiry, dispute-escalation, notification, webhook, statement and proof-of-liabilities jobs; returns the function that stops them. */
export function startJobs(
  services: Services,
  config: Config,
  log: Logger,
  observer: JobObserver = unobserved,
): () => Promise<void> {
  // Deposits, confirmations and sendouts; also notices deposits the admin CLI created.
  const stopChain = services.chain.start(chainPollMs(config), observer);
  // Unpaid trades past their payment window go back to the seller; the trades table is the job's state.
  const stopExpiry = services.trades.startExpiryJob(5_000, (e) => log.error('trade expiry failed', e), observer);
  // Disputes past a deadline: a missed answer noted, a missed moderator deadline escalated (decision 155).
  const stopDisputes = services.trades.startEscalationJob(
    15_000,
    (e) => log.error('dispute escalation failed', e),
    observer,
  );
  // The proof of liabilities every PROOF_INTERVAL_HOURS (0: only by the operator's command).
  const stopProof = services.proof.startSchedule(config.PROOF_INTERVAL_HOURS * 3_600_000, undefined, observer);
  if (config.CHAIN === 'simulated') {
    log.info(`Chain: simulated, a block every ${config.CHAIN_BLOCK_SECONDS} s (npm run admin -- chain:deposit …).`);
  }
  // E-mail digests, SMS and Telegram messages of notifications, from their durable queue.
  const stopDeliveries = services.notificationDeliveries.start(5_000, observer);
  // Merchants' webhooks, from their outbox: every second, and at once for what this process queued.
  const stopWebhooks = services.webhookDeliveries.start(1_000, observer);
  // Closes last month's statements once it ended (and tells people), checked every 10 minutes.
  const stopStatements = services.statements.startMonthlyJob(10 * 60_000, observer);
  // People's data exports, built chunk by chunk from their stored progress; expired files deleted.
  const stopExports = services.exports.start(1_000, observer);
  return async () => {
    await stopStatements();
    await stopExports();
    await stopExpiry();
    await stopDisputes();
    await stopChain();
    await stopDeliveries();
    await stopProof();
    await stopWebhooks();
  };
}
