import type { DatabaseLike } from '../../../db/database.ts';
import type { JobObserver } from '../../jobs/every.ts';
import { bindVerb, type PersonContext, type ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/view.ts';
import type { ExportsDeps } from './deps.ts';
import { runUntilIdle, startExportsJob, stepOnce, sweepExpired } from './job.ts';
import { exportFile, listExports, readExport } from './read.ts';
import { createExportsRepository } from './repository.ts';
import { requestExport } from './request.ts';
import { createExportStorage } from './storage.ts';

// A person's full export (issue 24; docs/decisions/158-data-exports.md): trades with fiat values,
// ledger movements, fees, chat, feedback, deposits and sendouts for any range of days, as a ZIP of
// CSV files or one JSON document, built in the background on the jobs' leader in chunks whose
// progress is stored, kept under UPLOADS_DIR for a week, and announced by a notification.

/** How long a finished file stays downloadable: a week. */
export const EXPORT_KEEP_MS = 7 * 86_400_000;

export interface ExportsOptions {
  db: DatabaseLike;
  uploadsDir: string;
  now: () => number;
  notify: (ctx: ServiceContext, input: NotifyInput) => Promise<unknown>;
  log: ExportsDeps['log'];
  /** Rows per chunk (tests make it small to watch the progress move). */
  chunkRows?: number;
  keepMs?: number;
  maxUnfinished?: number;
}

export function createExportsService(options: ExportsOptions) {
  const deps: ExportsDeps = {
    repo: createExportsRepository(options.db),
    storage: createExportStorage(options.uploadsDir),
    now: options.now,
    chunkRows: options.chunkRows ?? 500,
    keepMs: options.keepMs ?? EXPORT_KEEP_MS,
    maxUnfinished: options.maxUnfinished ?? 2,
    notify: options.notify,
    log: options.log,
  };
  return {
    request: bindVerb(deps, requestExport),
    list: (ctx: PersonContext) => listExports(deps, ctx),
    read: bindVerb(deps, readExport),
    file: bindVerb(deps, exportFile),
    /** One build step of the oldest open export (tests watch progress with it). */
    stepOnce: () => stepOnce(deps),
    runUntilIdle: () => runUntilIdle(deps),
    sweepExpired: () => sweepExpired(deps),
    /** The job on the jobs' leader. */
    start: (everyMs: number, observer?: JobObserver) => startExportsJob(deps, everyMs, undefined, observer),
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
