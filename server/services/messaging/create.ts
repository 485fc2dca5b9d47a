import type { DatabaseLike } from '../../../db/database.ts';
import type { Config } from '../../config.ts';
import type { Mailer, MessagingLog, SmsSender } from './messaging.ts';
import { createOutboxMailer, createOutboxSmsSender } from './outbox.ts';
import { createSmtpMailer } from './smtp.ts';

// Picks the adapters from the configuration, once at start.

export type MessagingConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>;

/** SMTP when `SMTP_URL` is set; otherwise the database outbox, which needs no network. */
export function createMailer(
  config: MessagingConfig,
  db: DatabaseLike,
  log: MessagingLog,
  now: () => number = Date.now,
): Mailer {
  if (config.SMTP_URL) return createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, db, now });
  return createOutboxMailer({ db, now, log });
}

/**
 * Always the database outbox for now: no SMS provider is wired yet. A real provider adapter (an
 * HTTP API configured by its own environment variable) comes with the phone-verification work
 * and will be chosen here the way createMailer chooses SMTP.
 */
export function createSmsSender(
  _config: MessagingConfig,
  db: DatabaseLike,
  log: MessagingLog,
  now: () => number = Date.now,
): SmsSender {
  return createOutboxSmsSender({ db, now, log });
}
