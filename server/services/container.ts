import type { Db } from '../../db/client.ts';
import type { Config } from '../config.ts';
import { createAccountsService } from './accounts/accounts.ts';
import { createAccountsRepository } from './accounts/repository.ts';
import { createSessionService } from './accounts/sessions.ts';
import { createThrottle } from './accounts/throttle.ts';
import { createChallengeService } from './challenge/challenge.ts';
import { createMailer } from './messaging/create.ts';
import type { Mailer } from './messaging/messaging.ts';
import type { PriceFeed } from './price-feed/price-feed.ts';
import { createReferenceService } from './reference/reference.ts';
import { createReferenceRepository } from './reference/repository.ts';

export type ServicesConfig = Pick<Config, 'AUTH_CHALLENGE' | 'SMTP_URL' | 'MAIL_FROM'>;

export interface ServicesLog {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface ServicesOptions {
  db: Db;
  priceFeed: PriceFeed;
  config: ServicesConfig;
  log: ServicesLog;
  now?: () => number;
  /** Tests pass their own to read what was sent. */
  mailer?: Mailer;
}

/** Every service wired to one database and one price feed; built once at start (and per test). */
export function createServices({ db, priceFeed, config, log, now = Date.now, mailer }: ServicesOptions) {
  const accountsRepo = createAccountsRepository(db);
  const sessions = createSessionService({ repo: accountsRepo, now });
  const challenge = createChallengeService({ db, now, enabled: config.AUTH_CHALLENGE === 'on' });
  return {
    reference: createReferenceService({ repo: createReferenceRepository(db), priceFeed, now }),
    sessions,
    challenge,
    accounts: createAccountsService({
      repo: accountsRepo,
      sessions,
      throttle: createThrottle({ repo: accountsRepo, now }),
      challenge,
      mailer: mailer ?? createMailer(config, db, log, now),
      now,
      log: log.error,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
