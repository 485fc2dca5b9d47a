import type { LedgerTransactionKind } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { ServiceContext } from '../context.ts';
import type { AccountRef } from './accounts.ts';
import type { AccountRow, LedgerRepository, TransactionRow } from './repository.ts';
import { LEDGER_CHANNEL, LEDGER_POSTED, type LedgerPostedEvent, type LedgerTransaction } from './types.ts';
import { committed, replay, viewOf } from './views.ts';
import { ensureAccount, write } from './write.ts';

// The core every verb of the ledger writes through (issue 5, ARCHITECTURE.md "Money and the
// ledger"). Every operation is one database transaction holding the idempotency check, the
// account rows it creates, the transaction, its postings, the balance updates and the audit row;
// its `ledger.posted` event is published only after the commit. No other work lands between the
// check and the write: on SQLite the transaction holds the connection (immediate, db/access.ts),
// on PostgreSQL it runs SERIALIZABLE and is retried from the start when it loses a race.
// Overdrafts are refused by the table's CHECK constraint, not by a read-then-compare here: two
// connections racing cannot both pass a check that the database makes on the row it writes.

export interface Outcome {
  view: LedgerTransaction;
  event?: LedgerPostedEvent;
}

export interface LedgerDeps {
  repo: LedgerRepository;
  bus: EventBus;
  now: () => number;
}

/** What one transaction writes besides its postings. */
export interface TransactionHeader {
  kind: LedgerTransactionKind;
  key: string;
  fingerprint: string;
  memo?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export function createLedgerCore({ repo, bus, now }: LedgerDeps) {
  const { sql } = repo.db;

  const publish = (outcome: Outcome) => {
    if (outcome.event) bus.publish(LEDGER_CHANNEL, { type: LEDGER_POSTED, payload: outcome.event });
  };

  /** Runs `body` as one transaction (or a savepoint in the caller's), events after commit. */
  const execute = async (ctx: ServiceContext, body: () => Promise<Outcome>): Promise<LedgerTransaction> => {
    if (ctx.tx) {
      if (!sql.inTransaction()) throw new Error('ledger: ctx.tx was given but no transaction is open');
      const outcome = await sql.transaction(() => body());
      const { tx } = ctx;
      tx.afterCommit(() => publish(outcome));
      return outcome.view;
    }
    // Publishing here would announce a change the outer transaction may still roll back.
    if (sql.inTransaction())
      throw new Error('ledger: called inside an open transaction without ctx.tx; its events would precede the commit');
    return sql.transaction(async (afterCommit) => {
      const outcome = await body();
      afterCommit(() => publish(outcome));
      return outcome.view;
    });
  };

  return {
    repo,
    now,
    execute,
    viewOf: (row: TransactionRow, replayed: boolean) => viewOf(repo, row, replayed),
    replay: (key: string, fingerprint: string) => replay(repo, key, fingerprint),
    ensureAccount: (ref: AccountRef, at: number) => ensureAccount(repo, ref, at),
    write: (
      ctx: ServiceContext,
      operation: string,
      header: TransactionHeader,
      legs: { account: AccountRow; amount: number }[],
      at: number,
    ) => write(repo, ctx, operation, header, legs, at),
    committed: (id: number) => committed(repo, id),
  };
}

export type LedgerCore = ReturnType<typeof createLedgerCore>;
