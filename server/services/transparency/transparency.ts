import type { DatabaseLike } from '../../../db/database.ts';
import type { TransparencyView } from '../../../src/lib/shared/views/transparency.ts';
import { createTransparencyRepository, type TransparencyRepository } from './repository.ts';
import { disputeStories, MINIMUM_DISPUTES, monthsOf, WINDOW_DAYS, windowsOf } from './statistics.ts';

// The public dispute statistics behind /transparency (issue 24, decision 162). The figures are the
// same for everyone and move slowly, and reading them scans a year of trades: one reading serves
// every visitor for ten minutes, and visitors who come while it is being made share it.

export const TRANSPARENCY_CACHE_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

export interface TransparencyDeps {
  db?: DatabaseLike;
  repo?: TransparencyRepository;
  now: () => number;
}

export function createTransparencyService({ db, repo: given, now }: TransparencyDeps) {
  const repo = given ?? createTransparencyRepository(db as DatabaseLike);
  let cached: { at: number; view: Promise<TransparencyView> } | undefined;

  async function compute(at: number): Promise<TransparencyView> {
    const since = at - Math.max(...WINDOW_DAYS) * DAY_MS;
    const { counts, openings, events, messages } = await repo.read(at, since);
    const stories = disputeStories(openings, events, messages);
    return {
      generatedAt: at,
      minimumDisputes: MINIMUM_DISPUTES,
      windows: windowsOf(stories, counts, at),
      months: monthsOf(stories, counts, at),
    };
  }

  return {
    /** The statistics, at most ten minutes old. */
    statistics(): Promise<TransparencyView> {
      const at = now();
      if (!cached || at - cached.at >= TRANSPARENCY_CACHE_MS) {
        const next = { at, view: compute(at) };
        cached = next;
        // A failed reading is tried again by the next visitor, not served for ten minutes.
        next.view.catch(() => {
          if (cached === next) cached = undefined;
        });
      }
      return cached.view;
    },
  };
}

export type TransparencyService = ReturnType<typeof createTransparencyService>;
