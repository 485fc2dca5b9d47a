import type { ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/view.ts';
import type { StatementKey } from './keys.ts';
import type { StatementsRepository } from './repository.ts';

/** What every verb of the statements service is given (statements.ts wires them). */
export interface StatementsDeps {
  repo: StatementsRepository;
  /** The platform's key, resolved once per process (keys.ts). */
  key: () => Promise<StatementKey>;
  /** The deployment's origin, the statements' `issuer`. */
  issuer: () => string;
  now: () => number;
  /** The notifications service's notify (the monthly job tells people their statement is ready). */
  notify: (ctx: ServiceContext, input: NotifyInput) => Promise<unknown>;
  /** Progress at info, failures at error: the metrics count every error as a failure (decision 148). */
  log: { info(message: string): void; error(message: string, error?: unknown): void };
}
