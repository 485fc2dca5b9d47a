import type { ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/view.ts';
import type { ExportsRepository } from './repository.ts';
import type { ExportStorage } from './storage.ts';

/** What every verb of the exports service is given (exports.ts wires them). */
export interface ExportsDeps {
  repo: ExportsRepository;
  storage: ExportStorage;
  now: () => number;
  /** Rows a chunk reads and renders at most (the job's unit of progress). */
  chunkRows: number;
  /** How long a finished file stays downloadable, ms. */
  keepMs: number;
  /** Unfinished exports one person may have at a time. */
  maxUnfinished: number;
  /** The notifications service's notify: the person hears when their file is ready. */
  notify: (ctx: ServiceContext, input: NotifyInput) => Promise<unknown>;
  /** Progress at info, failures at error: the metrics count every error as a failure (decision 148). */
  log: { info(message: string): void; error(message: string, error?: unknown): void };
}
