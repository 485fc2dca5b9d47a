import { access, inTransaction } from '../../../db/access.ts';
import type { LedgerTransactionKind } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { immediate, type ServiceContext } from '../context.ts';
import type { AccountRef } from './accounts.ts';
import { type AccountRow, createLedgerStatements, type LedgerRepository, type TransactionRow } from './repository.ts';
import { LEDGER_CHANNEL, LEDGER_POSTED, type LedgerPostedEvent, type LedgerTransaction } from './types.ts';
import { committed, replay, viewOf } from './views.ts';
import { ensureAccount, write } from './write.ts';

// The core every verb of the ledger writes through (issue 5, ARCHITECTURE.md "Money and the
// ledger"). Every operation is one immediate SQLite transaction holding the idempotency check, the
// account rows it creates, the transaction, its postings, the balance updates and the audit row;
// its `ledger.posted` event is published only after the commit. The verbs are asynchronous, but
// the body of that transaction runs its statements synchronously, start to end, in one turn: no
// other request's work can land between the check and the write.
// Overdrafts are refused by the table's CHECK constraint, not by a read-then-compare here: two
// connections racing cannot both pass a check that SQLite makes on the row it writes.

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
  const { db } = repo;
  const client = db.$client;
  // The synchronous statements the transaction bodies run (the reads go through `repo`).
  const sql = createLedgerStatements(db);

  const publish = (outcome: Outcome) => {
    if (outcome.event) bus.publish(LEDGER_CHANNEL, { type: LEDGER_POSTED, payload: outcome.event });
  };

  /** Runs `body` as one immediate transaction (or a savepoint in the caller's), events after commit. */
  const execute = async (ctx: ServiceContext, body: () => Outcome): Promise<LedgerTransaction> => {
    if (ctx.tx) {
      if (!inTransaction(db)) throw new Error('ledger: ctx.tx was given but no transaction is open');
      const outcome = client.transaction(body)();
      const { tx } = ctx;
      tx.afterCommit(() => publish(outcome));
      return outcome.view;
    }
    // Publishing here would announce a change the outer transaction may still roll back.
    if (inTransaction(db))
      throw new Error('ledger: called inside an open transaction without ctx.tx; its events would precede the commit');
    return immediate(db, (tx) => {
      const outcome = body();
      tx.afterCommit(() => publish(outcome));
      return outcome.view;
    });
  };

  return {
    repo,
    /** The synchronous statements, for transaction bodies only. */
    sql,
    now,
    execute,
    /** Synchronous reads of several statements at once, when the connection is free for this context. */
    read: <T>(body: (statements: typeof sql) => T): Promise<T> => access(db, () => body(sql)),
    viewOf: (row: TransactionRow, replayed: boolean) => viewOf(sql, row, replayed),
    replay: (key: string, fingerprint: string) => replay(sql, key, fingerprint),
    ensureAccount: (ref: AccountRef, at: number) => ensureAccount(sql, ref, at),
    write: (
      ctx: ServiceContext,
      operation: string,
      header: TransactionHeader,
      legs: { account: AccountRow; amount: number }[],
      at: number,
    ) => write(sql, ctx, operation, header, legs, at),
    committed: (id: number) => committed(sql, id),
  };
}

export type LedgerCore = ReturnType<typeof createLedgerCore>;
