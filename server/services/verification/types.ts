import type { EventBus } from '../../realtime/bus.ts';
import type { Mailer } from '../messaging/messaging.ts';
import type { VerificationRepository } from './repository.ts';
import type { DocumentStorage } from './storage.ts';
import type { UsedVolumeSource } from './volume.ts';

export interface VerificationDeps {
  repo: VerificationRepository;
  storage: DocumentStorage;
  /** US cents a person traded since a moment (volume.ts; the trades table by default). */
  usedVolumeUsdCents: UsedVolumeSource;
  /** Units of a fiat currency per US dollar (the reference service's rates); undefined if unknown. */
  fiatPerUsd: (currency: string) => Promise<number | undefined> | number | undefined;
  mailer: Mailer;
  bus: EventBus;
  /** The link in the review mail: the configured origin (server/site-origin.ts), never a request's. */
  siteOrigin: { url(pathAndQuery: string): string };
  now: () => number;
  log: (message: string, error?: unknown) => void;
}
