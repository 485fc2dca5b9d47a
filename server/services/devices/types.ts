import type { EventBus } from '../../realtime/bus.ts';
import type { ServiceContext } from '../context.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import type { Geolocation } from './geolocation.ts';
import type { DevicesRepository } from './repository.ts';

// The shapes the device review verbs share: what callers send, and what each verb is given.

export interface DeviceClient {
  ip: string;
  userAgent: string;
}

export interface DeviceReviewDeps {
  repo: DevicesRepository;
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Without it (or with GEOIP=off) city and country stay null. */
  geolocation?: Pick<Geolocation, 'lookup'>;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  /** Hears of each review requested, after its commit (the notifications subscriber). */
  bus?: EventBus;
  /** The link in the mail: the configured origin (server/site-origin.ts), never the request's Host. */
  siteOrigin: { url(pathAndQuery: string): string };
  /**
   * Ends a reported device's sessions through the session service (accounts/sessions.ts): the one
   * way sessions end, so their sockets are cut too. Named here, not imported: accounts imports
   * this folder (the user-agent parser), so this folder does not import accounts.
   */
  sessions: { invalidateMany(ctx: ServiceContext, input: { sessionIds: readonly string[] }): Promise<number> };
}

/** What every verb is given: the deps, and the location lookups still in flight. */
export interface DeviceReviewParts extends DeviceReviewDeps {
  /** Review token → its row's lookup while in flight, so the mail can wait for it. */
  placing: Map<string, Promise<void>>;
}
