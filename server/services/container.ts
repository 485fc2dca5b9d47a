import type { Db } from '../../db/client.ts';
import type { PriceFeed } from './price-feed/price-feed.ts';
import { createReferenceService } from './reference/reference.ts';
import { createReferenceRepository } from './reference/repository.ts';

/** Every service wired to one database and one price feed; built once at start (and per test). */
export function createServices({
  db,
  priceFeed,
  now = Date.now,
}: {
  db: Db;
  priceFeed: PriceFeed;
  now?: () => number;
}) {
  return {
    reference: createReferenceService({ repo: createReferenceRepository(db), priceFeed, now }),
  };
}

export type Services = ReturnType<typeof createServices>;
