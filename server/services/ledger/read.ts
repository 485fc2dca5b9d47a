import type { LedgerCurrency } from '../../../db/schema/index.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { type AccountRef, isOwnedRef, type OwnedAccountKind } from './accounts.ts';
import type { LedgerCore } from './execute.ts';
import type { AccountRow } from './repository.ts';
import { HISTORY_PAGE_SIZE, type LedgerTransaction, type UserHistoryEntry } from './types.ts';

// What the ledger answers without writing: balances, accounts, transactions, a user's history.

export interface HistoryInput {
  userId: number;
  /** The `nextBefore` of the previous page. */
  before?: string;
  limit?: number;
}

export function createLedgerReads({ repo, viewOf }: LedgerCore) {
  return {
    /**
     * BTC and USDT of a user's wallet (or their accounts of another `kind`); zero where none exists
     * yet (spec section 9: default balances are zero).
     */
    async balances(
      _ctx: ServiceContext,
      { userId, kind }: { userId: number; kind?: OwnedAccountKind },
    ): Promise<Record<LedgerCurrency, number>> {
      const result: Record<LedgerCurrency, number> = { BTC: 0, USDT: 0 };
      for (const row of await repo.balancesOf(userId, kind)) result[row.currency] = row.balance;
      return result;
    },

    /** An account's balance and state, or undefined before its first posting. */
    async account(_ctx: ServiceContext, ref: AccountRef): Promise<AccountRow | undefined> {
      if (isOwnedRef(ref)) return repo.ownedAccount(ref.kind, ref.userId, ref.currency);
      if (ref.kind === 'trade_escrow') return repo.escrowAccount(ref.reference, ref.currency);
      return repo.systemAccount(ref.kind, ref.currency);
    },

    /** The transaction `ltx_…`, if any. */
    async transaction(_ctx: ServiceContext, { id }: { id: string }): Promise<LedgerTransaction | undefined> {
      // Append-only: a committed transaction's postings never change between the two reads.
      const row = await repo.transactionByPublicId(id);
      return row ? viewOf(row, false) : undefined;
    },

    /** The transaction an idempotency key committed, if any (a retry that must answer the first result). */
    async transactionByKey(
      _ctx: ServiceContext,
      { idempotencyKey }: { idempotencyKey: string },
    ): Promise<LedgerTransaction | undefined> {
      const row = await repo.transactionByKey(idempotencyKey);
      return row ? viewOf(row, true) : undefined;
    },

    /**
     * A user's transactions, newest first, each with what it did to their wallets. `before` is the
     * `nextBefore` of the previous page; pages never shift, the ledger being append-only.
     */
    async history(
      _ctx: ServiceContext,
      { userId, before, limit = HISTORY_PAGE_SIZE }: HistoryInput,
    ): Promise<{ items: UserHistoryEntry[]; nextBefore: string | null }> {
      let beforeId = Number.MAX_SAFE_INTEGER;
      if (before !== undefined) {
        const row = await repo.transactionByPublicId(before);
        if (!row) throw notFound('The transaction', 'before');
        beforeId = row.id;
      }
      const size = Math.min(Math.max(1, Math.trunc(limit)), HISTORY_PAGE_SIZE);
      // One more than the page, to know whether another follows.
      const rows = await repo.historyOf(userId, beforeId, size + 1);
      const items: UserHistoryEntry[] = [];
      for (const row of rows) {
        const last = items.at(-1);
        if (last?.id === row.publicId) last.changes.push({ currency: row.currency, amount: row.amount });
        else
          items.push({
            id: row.publicId,
            kind: row.kind,
            memo: row.memo,
            createdAt: row.createdAt,
            changes: [{ currency: row.currency, amount: row.amount }],
          });
      }
      const more = items.length > size;
      if (more) items.length = size;
      return { items, nextBefore: more ? (items.at(-1)?.id ?? null) : null };
    },
  };
}
