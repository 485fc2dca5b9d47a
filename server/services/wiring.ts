import type { DatabaseLike } from '../../db/database.ts';
import type { Config } from '../config.ts';
import type { EventBus } from '../realtime/bus.ts';
import type { SharedStore } from '../shared-store.ts';
import type { SiteOrigin } from '../site-origin.ts';
import type { ChainAdapter } from './chain/adapter.ts';
import type { Mailer, SmsSender } from './messaging/messaging.ts';
import type { Places } from './places/places.ts';
import type { PriceFeed } from './price-feed/price-feed.ts';
import type { WebhookOutbox } from './webhooks/outbox.ts';
import type { WebhookRecorder } from './webhooks/recorder.ts';
import type { WebhookPost } from './webhooks/transport.ts';

// What server/services/container.ts hands each area's wiring (its own file per area where the area
// is large: accounts/wiring.ts, bank-accounts/wiring.ts, webhooks/wiring.ts).

export type ServicesConfig = Pick<Config, 'AUTH_CHALLENGE' | 'SMTP_URL' | 'MAIL_FROM' | 'UPLOADS_DIR'> &
  Partial<
    Pick<
      Config,
      | 'TELEGRAM_BOT_NAME'
      | 'GEOIP'
      | 'DEFAULT_COUNTRY'
      | 'WALLET_BTC_XPUB'
      | 'WALLET_TRON_XPUB'
      | 'QUOTE_TTL_SECONDS'
      | 'PRICE_TICK_SECONDS'
      | 'CHAIN'
      | 'BITCOIND_RPC_URL'
      | 'CHAIN_BLOCK_SECONDS'
      | 'DISPUTE_WAIT_MINUTES'
      | 'DISPUTE_ANSWER_MINUTES'
      | 'DISPUTE_TAKE_MINUTES'
      | 'DISPUTE_DECISION_MINUTES'
      | 'PROOF_INTERVAL_HOURS'
      | 'GIFT_CODE_KEY'
      | 'PUBLIC_ORIGIN'
      | 'HOST'
      | 'PORT'
      | 'WEBHOOKS_ALLOW_LOCAL'
      | 'API_KEY_ROOT'
      | 'STATEMENT_KEY'
      | 'STATEMENT_KEY_FILE'
    >
  >;

export interface ServicesLog {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** What every area's wiring shares: the options with their defaults filled in, and the senders. */
export interface Wiring {
  db: DatabaseLike;
  priceFeed: PriceFeed;
  config: ServicesConfig;
  log: ServicesLog;
  now: () => number;
  bus: EventBus;
  siteOrigin: SiteOrigin;
  mailer: Mailer;
  sms: SmsSender;
  chainAdapter: ChainAdapter | undefined;
  sleep: (ms: number) => Promise<void>;
  store: SharedStore | undefined;
  places: Places;
  /** The webhooks outbox, written by the services that announce changes, in their transactions. */
  webhookOutbox: WebhookOutbox;
  webhookRecorder: WebhookRecorder;
  webhookPost: WebhookPost | undefined;
}
