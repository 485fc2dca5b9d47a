import type { PersonContext } from '../context.ts';
import { bindVerb } from '../context.ts';
import { operatorOf } from './access.ts';
import type { AuditFilter, AuditRow } from './audit.ts';
import type { OperatorsDeps } from './deps.ts';
import { feeIncome } from './fee-income.ts';
import { checkOf, LEDGER_VERIFY_ACTION, runLedgerCheck } from './ledger-check.ts';
import { findPeople, personFile } from './people.ts';
import { actOnPerson } from './person-actions.ts';
import { actOnSendout, listSendouts } from './sendouts.ts';
import { lookUpTrade } from './trade-lookup.ts';

// The operator console's service (issue 25, "Act"; docs/operations.md "Operator console"): find a
// person and read their file, act on their account, look a trade up, retry or cancel a stuck
// sendout, verify the ledger, read the fee income and the audit log. Who may do what is
// access.ts (decision 150); every change needs the second factor (second-factor.ts, decision 151)
// and is a row of the append-only audit log in its own transaction (audit.ts, decision 153).
// One verb per file; this wires them to the area's deps.

export type { OperatorsDeps } from './deps.ts';

const auditView = (row: AuditRow) => ({
  id: row.id,
  at: row.createdAt,
  operator: { type: row.actorType, id: row.actorId, name: row.actorName },
  action: row.action,
  outcome: row.outcome,
  target: { type: row.targetType, id: row.targetId },
  reason: row.reason,
  details: row.details,
  requestId: row.requestId,
});

export function createOperatorsService(deps: OperatorsDeps) {
  return {
    findPeople: bindVerb(deps, findPeople),
    personFile: bindVerb(deps, personFile),
    actOnPerson: bindVerb(deps, actOnPerson),
    lookUpTrade: bindVerb(deps, lookUpTrade),
    listSendouts: bindVerb(deps, listSendouts),
    actOnSendout: bindVerb(deps, actOnSendout),
    feeIncome: bindVerb(deps, feeIncome),

    /** Runs the ledger's verification now (it changes nothing but the log) and answers its result. */
    async verifyLedger(ctx: PersonContext) {
      const operator = operatorOf(ctx, 'admin');
      const result = await runLedgerCheck(deps, ctx, operator.actor);
      return { ...result, by: { type: 'user' as const, id: ctx.auth.user.publicId, name: ctx.auth.user.username } };
    },

    /** The last verification's result, by the console or the CLI; null before the first. */
    async lastLedgerCheck(ctx: PersonContext) {
      operatorOf(ctx, 'admin');
      const row = await deps.audit.lastOf(LEDGER_VERIFY_ACTION);
      return row ? checkOf(row) : null;
    },

    async auditLog(ctx: PersonContext, filter: AuditFilter) {
      operatorOf(ctx, 'admin');
      const { rows, hasMore } = await deps.audit.list(filter);
      return { items: rows.map(auditView), hasMore };
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
