import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { type LedgerViolation, verifyLedger } from '../ledger/invariants.ts';
import { createProofRepository } from '../proof/repository.ts';
import type { AuditActor, AuditLog, AuditRow } from './audit.ts';

// The ledger's verification as operators run it, from the console (POST …/operators/ledger/verify)
// or `npm run admin -- ledger:verify`: the same invariants the tests check (ledger/invariants.ts),
// the counts and what the platform owes people. Each run is a row of the operators' audit log whose
// details hold the result, so the last result stays readable (GET …/operators/ledger/verification).

export const LEDGER_VERIFY_ACTION = 'ledger.verify';

export interface LedgerCheck {
  ok: boolean;
  violations: LedgerViolation[];
  transactions: number;
  accounts: number;
  /** Minor units per currency: what the people's accounts hold (docs/decisions/146). */
  owed: Record<LedgerCurrency, number>;
  /** Unix ms the check ran. */
  checkedAt: number;
}

const COUNTS = `SELECT (SELECT count(*) FROM ledger_accounts) AS accounts,
  (SELECT count(*) FROM ledger_transactions) AS transactions`;

/** Checks every invariant; reads only. */
export async function checkLedger(db: DatabaseLike, now: () => number): Promise<LedgerCheck> {
  const violations = await verifyLedger(db);
  const counts = await asDatabase(db).sql.get<{ accounts: number; transactions: number }>(COUNTS);
  const { owed } = await createProofRepository(db).snapshot();
  return {
    ok: violations.length === 0,
    violations,
    transactions: Number(counts?.transactions ?? 0),
    accounts: Number(counts?.accounts ?? 0),
    owed,
    checkedAt: now(),
  };
}

/** Checks every invariant and records the result in the operators' audit log; it changes nothing else. */
export async function runLedgerCheck(
  deps: { db: DatabaseLike; audit: AuditLog; now: () => number },
  ctx: ServiceContext,
  by: AuditActor,
): Promise<LedgerCheck> {
  const { db, audit, now } = deps;
  const result = await checkLedger(db, now);
  await immediate(db, () =>
    audit.record(by, {
      action: LEDGER_VERIFY_ACTION,
      targetType: 'ledger',
      targetId: null,
      details: { ...result },
      requestId: ctx.requestId,
    }),
  );
  return result;
}

/** The result a row of the log holds, with who ran it. */
export function checkOf(
  row: AuditRow,
): LedgerCheck & { by: { type: 'user' | 'cli'; id: string | null; name: string } } {
  return {
    ...(row.details as unknown as LedgerCheck),
    by: { type: row.actorType, id: row.actorId, name: row.actorName },
  };
}
