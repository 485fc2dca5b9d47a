import { defaultLocale, isLocale, type Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { translate } from '../../../src/lib/shared/i18n/messages.ts';
import { createJob, type JobObserver } from '../../jobs/every.ts';
import type { Mailer, SmsSender } from '../messaging/messaging.ts';
import type { TelegramBot } from '../telegram/bot.ts';
import { renderNotification } from './notifications.ts';
import type { DeliveryRow, NotificationsRepository, Recipient } from './repository.ts';
import { TRADE_MESSAGE_TYPES } from './types.ts';

// The job that carries notifications out of the system: e-mail digests of unread trade messages,
// SMS and Telegram messages, from the `notification_deliveries` queue that notify() fills in its
// own transaction. Started in server/backend.ts like the chain job.
//
// Exactly once, as far as a crash allows: a row is claimed (claimed_at) before it is sent and
// finished after; stop() waits for what is in flight. A row a crashed process had claimed but not
// finished is marked `interrupted` at the next start and not sent again: a second copy of a
// message is worse than a logged gap (docs/decisions/064-notification-deliveries.md, "Notification deliveries").

const BATCH = 50;
/** The e-mail lists at most this many trades. */
const DIGEST_ITEMS = 20;

export interface DeliveryJobDeps {
  repo: NotificationsRepository;
  mailer: Mailer;
  sms: SmsSender;
  telegram: Pick<TelegramBot, 'sendMessage'>;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  /** Links in messages: the configured origin (server/site-origin.ts), PUBLIC_ORIGIN or http://HOST:PORT. */
  siteOrigin: { url(pathAndQuery: string): string };
}

const localeOf = (value: string): Locale => (isLocale(value) ? value : defaultLocale);

type Outcome = 'sent' | 'skipped';

/** The e-mail digest of the unread trade messages; none when they were read on the site meanwhile. */
async function sendDigest(
  { repo, mailer, siteOrigin }: DeliveryJobDeps,
  recipient: Recipient,
  locale: Locale,
): Promise<Outcome> {
  const unread = await repo.unreadOfTypes(recipient.id, TRADE_MESSAGE_TYPES, DIGEST_ITEMS);
  // Read on the site meanwhile: no mail.
  if (unread.length === 0 || !recipient.isEmailVerified) return 'skipped';
  const lines = unread.map((n) => {
    const view = renderNotification(n, locale);
    return `- ${view.message}${view.subtext ? ` (${view.subtext})` : ''}\n  ${siteOrigin.url(view.link)}`;
  });
  await mailer.send({
    to: recipient.email,
    subject: translate(locale, 'notifications.email.subject'),
    text: `${translate(locale, 'notifications.email.greeting', { username: recipient.username })}\n\n${lines.join('\n')}\n\n${translate(locale, 'notifications.email.footer')}\n`,
  });
  return 'sent';
}

/** One notification by Telegram or SMS; none when it was read meanwhile. */
async function sendInstant(
  { repo, sms, telegram, siteOrigin }: DeliveryJobDeps,
  row: DeliveryRow,
  recipient: Recipient,
  locale: Locale,
): Promise<Outcome> {
  const stored = row.notificationId === null ? undefined : await repo.byId(row.notificationId);
  if (!stored || stored.isRead) return 'skipped';
  const view = renderNotification(stored, locale);
  const text = `${view.message}${view.subtext ? `\n${view.subtext}` : ''}\n${siteOrigin.url(view.link)}`;
  if (row.channel === 'telegram') {
    if (!recipient.telegramChatId) return 'skipped';
    await telegram.sendMessage(recipient.telegramChatId, text);
    return 'sent';
  }
  if (row.channel === 'sms') {
    if (!recipient.phoneNumber || recipient.phoneVerifiedAt === null) return 'skipped';
    await sms.send({ to: recipient.phoneNumber, text });
    return 'sent';
  }
  return 'skipped';
}

/** Sends one row; answers `skipped` when there is nothing (left) to say. */
async function send(deps: DeliveryJobDeps, row: DeliveryRow): Promise<Outcome> {
  const recipient = await deps.repo.recipient(row.userId);
  if (!recipient) return 'skipped';
  const locale = localeOf(recipient.locale);
  if (row.kind === 'digest') return sendDigest(deps, recipient, locale);
  return sendInstant(deps, row, recipient, locale);
}

/** One pass over what is due; answers how many rows it finished. */
async function runOnce(deps: DeliveryJobDeps): Promise<number> {
  const { repo, now, log } = deps;
  let finished = 0;
  for (const row of await repo.dueDeliveries(now(), BATCH)) {
    if (!(await repo.claim(row.id, now()))) continue;
    try {
      const outcome = await send(deps, row);
      await repo.finish(row.id, outcome, outcome === 'sent' ? now() : null, null);
    } catch (error) {
      log(`notifications: ${row.channel} delivery ${row.id} failed`, error);
      await repo.finish(row.id, 'failed', null, error instanceof Error ? error.message.slice(0, 500) : 'failed');
    }
    finished += 1;
  }
  return finished;
}

export function createDeliveryJob(deps: DeliveryJobDeps) {
  const { repo, log } = deps;
  const job = createJob('notification-deliveries', () => runOnce(deps), {
    onError: (error) => log('notifications: the delivery job failed', error),
  });

  return {
    runOnce: async () => (await job.run()) ?? 0,
    /** Runs at once and every `pollMs`; resolves the returned stop() once the pass in flight is done. */
    start(pollMs: number, observer?: JobObserver): () => Promise<void> {
      // Before the first pass claims anything of its own.
      const before = repo.markInterrupted().then(
        (interrupted) => {
          if (interrupted > 0)
            log(`notifications: ${interrupted} deliveries were cut short by a stop and are not resent`);
        },
        (error: unknown) => log('notifications: could not mark the interrupted deliveries', error),
      );
      return job.start(pollMs, { before, observer });
    },
  };
}

export type DeliveryJob = ReturnType<typeof createDeliveryJob>;
