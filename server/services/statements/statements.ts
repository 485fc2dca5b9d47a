import type { DatabaseLike } from '../../../db/database.ts';
import type { JobObserver } from '../../jobs/every.ts';
import { bindVerb, type PersonContext, type ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/view.ts';
import { currentStatement } from './current.ts';
import type { StatementsDeps } from './deps.ts';
import { type KeySettings, statementKeySource } from './keys.ts';
import { monthlyStatement, statementMonths } from './monthly.ts';
import { runMonthlyJob, startMonthlyJob } from './monthly-job.ts';
import { createStatementsRepository } from './repository.ts';
import { publishedKeys } from './sign.ts';

// Signed account statements (issue 24; docs/decisions/147-signed-statements.md, docs/trust.md):
// a person's balances now or for an ended month, signed with the platform's Ed25519 key, so they
// hold evidence of what the platform owed them that anyone can check offline
// (scripts/verify-statement.ts) against the key published at /.well-known/coinfair-statement-key.

export interface StatementsOptions {
  db: DatabaseLike;
  settings: KeySettings;
  /** The deployment's origin (known once the server listens with PORT=0). */
  issuer: () => string;
  now: () => number;
  notify: (ctx: ServiceContext, input: NotifyInput) => Promise<unknown>;
  /** Progress at info, failures at error: the metrics count every error as a failure (decision 148). */
  log: { info(message: string): void; error(message: string, error?: unknown): void };
}

export function createStatementsService({ db, settings, issuer, now, notify, log }: StatementsOptions) {
  const repo = createStatementsRepository(db);
  const deps: StatementsDeps = { repo, key: statementKeySource(settings, repo, now), issuer, now, notify, log };
  return {
    current: (ctx: PersonContext) => currentStatement(deps, ctx),
    monthly: bindVerb(deps, monthlyStatement),
    months: (ctx: PersonContext) => statementMonths(deps, ctx),
    /** The public key document of /.well-known/coinfair-statement-key. */
    publishedKeys: () => publishedKeys(deps),
    /** The signing key's id and where it came from (the start-up log, the admin CLI). */
    keyInfo: async () => {
      const key = await deps.key();
      return { keyId: key.keyId, source: key.source };
    },
    /** One run of the monthly job (tests, the admin CLI); the leader runs it on a timer. */
    runMonthlyJob: () => runMonthlyJob(deps),
    startMonthlyJob: (everyMs: number, observer?: JobObserver) => startMonthlyJob(deps, everyMs, observer),
  };
}

export type StatementsService = ReturnType<typeof createStatementsService>;
