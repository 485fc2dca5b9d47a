import { createHash } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import {
  LEDGER_ACCOUNT_KINDS,
  LEDGER_CURRENCIES,
  LEDGER_TRANSACTION_KINDS,
  type LedgerAccountKind,
  type LedgerCurrency,
  type LedgerTransactionKind,
  NEGATIVE_ALLOWED_KINDS,
} from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { Actor, ServiceContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput, notFound } from '../errors.ts';
import type { AccountRow, LedgerRepository, TransactionRow } from './repository.ts';

// The ledger (issue 5, ARCHITECTURE.md "Money and the ledger"): the one module that writes
// postings. Every operation is one synchronous immediate SQLite transaction holding the
// idempotency check, the account rows it creates, the transaction, its postings, the balance
// updates and the audit row; its `ledger.posted` event is published only after the commit.
// Overdrafts are refused by the table's CHECK constraint, not by a read-then-compare here: two
// connections racing cannot both pass a check that SQLite makes on the row it writes.

export type SystemAccountKind = Exclude<LedgerAccountKind, 'user_wallet' | 'trade_escrow'>;
const SYSTEM_KINDS = LEDGER_ACCOUNT_KINDS.filter(
  (kind) => kind !== 'user_wallet' && kind !== 'trade_escrow',
) as SystemAccountKind[];

/** Names an account; wallets and system accounts are created by their first posting. */
export type AccountRef =
  | { kind: 'user_wallet'; userId: number; currency: LedgerCurrency }
  | { kind: 'trade_escrow'; reference: string; currency: LedgerCurrency }
  | { kind: SystemAccountKind; currency: LedgerCurrency };

export const walletOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'user_wallet',
  userId,
  currency,
});
export const systemAccount = (kind: SystemAccountKind, currency: LedgerCurrency): AccountRef => ({ kind, currency });
export const escrowOf = (tradeRef: string, currency: LedgerCurrency): AccountRef => ({
  kind: 'trade_escrow',
  reference: tradeRef,
  currency,
});

export type { Actor };
/** The ledger's calls take the service context (server/services/context.ts). */
export type LedgerContext = ServiceContext;

export interface Leg {
  account: AccountRef;
  /** Signed minor units (satoshi, micro-tether): positive credits the account. */
  amount: number;
}

/** Kinds a caller may post directly; escrow moves only through lockEscrow/releaseEscrow/returnEscrow. */
export const DIRECT_KINDS = LEDGER_TRANSACTION_KINDS.filter((kind) => !kind.startsWith('escrow_')) as Exclude<
  LedgerTransactionKind,
  'escrow_lock' | 'escrow_release' | 'escrow_return'
>[];
export type DirectKind = (typeof DIRECT_KINDS)[number];

export interface PostInput {
  kind: DirectKind;
  idempotencyKey: string;
  legs: Leg[];
  memo?: string;
  metadata?: Record<string, unknown>;
}

export interface LedgerTransaction {
  /** `ltx_…` */
  id: string;
  kind: LedgerTransactionKind;
  memo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: number;
  postings: { account: AccountRef; amount: number }[];
  /** True when this answers a retry: the first result, nothing written. */
  replayed: boolean;
}

export interface UserHistoryEntry {
  id: string;
  kind: LedgerTransactionKind;
  memo: string | null;
  createdAt: number;
  /** What the transaction did to this user's wallets, per currency (signed minor units). */
  changes: { currency: LedgerCurrency; amount: number }[];
}

export const LEDGER_CHANNEL = 'ledger';
export const LEDGER_POSTED = 'ledger.posted';

export interface LedgerPostedEvent {
  transactionId: string;
  kind: LedgerTransactionKind;
  /** The users whose wallet balances changed (row ids and public ids, same order). */
  userIds: number[];
  userPublicIds: string[];
}

const MAX_KEY_LENGTH = 200;
const MAX_MEMO_LENGTH = 500;
const MAX_REFERENCE_LENGTH = 100;
const MAX_LEGS = 20;
export const HISTORY_PAGE_SIZE = 50;

// ——— pure checks, before any transaction ———

const isCurrency = (value: unknown): value is LedgerCurrency => LEDGER_CURRENCIES.includes(value as LedgerCurrency);

/** Safe, non-zero integers only: a float or a string amount is a bug in the caller. */
const isAmount = (value: unknown): value is number => Number.isSafeInteger(value) && value !== 0;
const isPositiveAmount = (value: unknown): value is number => isAmount(value) && (value as number) > 0;

function checkRef(ref: AccountRef, field: string, issues: FieldIssue[]): void {
  if (!ref || typeof ref !== 'object') {
    issues.push({ field, message: 'An account is required.' });
    return;
  }
  if (!isCurrency(ref.currency)) issues.push({ field: `${field}.currency`, message: 'The currency is BTC or USDT.' });
  if (ref.kind === 'user_wallet') {
    if (!Number.isSafeInteger(ref.userId) || ref.userId <= 0)
      issues.push({ field: `${field}.userId`, message: 'A user id is a positive integer.' });
  } else if (ref.kind === 'trade_escrow') {
    checkReference(ref.reference, `${field}.reference`, issues);
  } else if (!SYSTEM_KINDS.includes(ref.kind)) {
    issues.push({ field: `${field}.kind`, message: 'Unknown account kind.' });
  }
}

function checkReference(reference: unknown, field: string, issues: FieldIssue[]): void {
  if (typeof reference !== 'string' || reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH)
    issues.push({ field, message: `A trade reference is 1 to ${MAX_REFERENCE_LENGTH} characters.` });
}

function checkCommon(input: { idempotencyKey: unknown; memo?: unknown }, issues: FieldIssue[]): void {
  const key = input.idempotencyKey;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || /[\p{Cc}]/u.test(key))
    issues.push({
      field: 'idempotencyKey',
      message: `An idempotency key is 1 to ${MAX_KEY_LENGTH} printable characters.`,
    });
  if (input.memo !== undefined && (typeof input.memo !== 'string' || input.memo.length > MAX_MEMO_LENGTH))
    issues.push({ field: 'memo', message: `A memo is at most ${MAX_MEMO_LENGTH} characters.` });
}

/** One string per account, for duplicates and the fingerprint. */
export const accountKey = (ref: AccountRef): string =>
  ref.kind === 'user_wallet'
    ? `user_wallet:${ref.userId}:${ref.currency}`
    : ref.kind === 'trade_escrow'
      ? `trade_escrow:${ref.reference}:${ref.currency}`
      : `${ref.kind}:${ref.currency}`;

function checkPost(input: PostInput): void {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  if (!(DIRECT_KINDS as string[]).includes(input.kind))
    issues.push({ field: 'kind', message: `The kind is one of ${DIRECT_KINDS.join(', ')}.` });
  const { metadata } = input;
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)))
    issues.push({ field: 'metadata', message: 'Metadata is a JSON object.' });
  if (!Array.isArray(input.legs) || input.legs.length < 2 || input.legs.length > MAX_LEGS) {
    issues.push({ field: 'legs', message: `A transaction has 2 to ${MAX_LEGS} legs.` });
    throw invalidInput(issues);
  }
  const seen = new Set<string>();
  // BigInt: the sum of safe integers need not be one.
  const sums = new Map<string, bigint>();
  input.legs.forEach((leg, i) => {
    const before = issues.length;
    checkRef(leg?.account, `legs[${i}].account`, issues);
    if (!isAmount(leg?.amount))
      issues.push({ field: `legs[${i}].amount`, message: 'An amount is a non-zero whole number of minor units.' });
    if (issues.length > before) return;
    if (leg.account.kind === 'trade_escrow')
      issues.push({ field: `legs[${i}].account`, message: 'Escrow moves only by locking, releasing or returning.' });
    const key = accountKey(leg.account);
    if (seen.has(key)) issues.push({ field: `legs[${i}].account`, message: 'Each account appears once.' });
    seen.add(key);
    sums.set(leg.account.currency, (sums.get(leg.account.currency) ?? 0n) + BigInt(leg.amount));
  });
  for (const [currency, sum] of sums)
    if (sum !== 0n && issues.length === 0)
      issues.push({ field: 'legs', message: `The ${currency} legs sum to ${sum}, not zero.` });
  if (issues.length > 0) throw invalidInput(issues);
}

/** JSON with sorted object keys, so equal parameters hash equally whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const fingerprintOf = (operation: string, params: Record<string, unknown>) =>
  createHash('sha256')
    .update(canonical({ operation, ...params }))
    .digest('hex');

const refOfRow = (row: {
  kind: LedgerAccountKind;
  ownerId: number | null;
  reference: string | null;
  currency: LedgerCurrency;
}): AccountRef =>
  row.kind === 'user_wallet'
    ? walletOf(row.ownerId ?? 0, row.currency)
    : row.kind === 'trade_escrow'
      ? escrowOf(row.reference ?? '', row.currency)
      : systemAccount(row.kind, row.currency);

interface Outcome {
  view: LedgerTransaction;
  event?: LedgerPostedEvent;
}

/** better-sqlite3's SqliteError, without importing the native module's class. */
const sqliteError = (error: unknown): { code: string; message: string } | undefined =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string'
    ? (error as Error & { code: string })
    : undefined;

export function createLedgerService({ repo, bus, now }: { repo: LedgerRepository; bus: EventBus; now: () => number }) {
  const client = repo.db.$client;

  const viewOf = (row: TransactionRow, replayed: boolean): LedgerTransaction => ({
    id: row.publicId,
    kind: row.kind,
    memo: row.memo,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    createdAt: row.createdAt,
    postings: repo.postingsOf(row.id).map((p) => ({ account: refOfRow(p), amount: p.amount })),
    replayed,
  });

  /**
   * The first result of this key, or undefined when it is new. The same key with other parameters
   * is refused, so a client bug cannot pass for a retry.
   */
  const replay = (key: string, fingerprint: string): Outcome | undefined => {
    const existing = repo.transactionByKey(key);
    if (!existing) return undefined;
    if (existing.fingerprint !== fingerprint)
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was used for a different request; use a new key for a new request.',
        { field: 'idempotencyKey' },
      );
    return { view: viewOf(existing, true) };
  };

  /** The account's row; wallets and system accounts are created on first use, escrows by a lock. */
  const ensureAccount = (ref: AccountRef, at: number): AccountRow => {
    if (ref.kind === 'user_wallet') {
      const found = repo.walletAccount(ref.userId, ref.currency);
      if (found) return found;
      if (!repo.userExists(ref.userId)) throw notFound(`User ${ref.userId}`, 'account');
      return repo.insertAccount({
        kind: 'user_wallet',
        ownerId: ref.userId,
        currency: ref.currency,
        reference: null,
        allowNegative: 0,
        at,
      });
    }
    if (ref.kind === 'trade_escrow') {
      const found = repo.escrowAccount(ref.reference, ref.currency);
      if (!found) throw notFound(`The ${ref.currency} escrow of ${ref.reference}`, 'account');
      return found;
    }
    return (
      repo.systemAccount(ref.kind, ref.currency) ??
      repo.insertAccount({
        kind: ref.kind,
        ownerId: null,
        currency: ref.currency,
        reference: null,
        allowNegative: (NEGATIVE_ALLOWED_KINDS as readonly string[]).includes(ref.kind) ? 1 : 0,
        at,
      })
    );
  };

  /**
   * Writes one transaction: its row, each posting with its balance update, the audit row. A
   * constraint SQLite raises on a balance becomes the typed error; the enclosing transaction
   * then rolls back everything, so a refused operation leaves no trace.
   */
  const write = (
    ctx: LedgerContext,
    operation: string,
    tx: {
      kind: LedgerTransactionKind;
      key: string;
      fingerprint: string;
      memo?: string | undefined;
      metadata?: Record<string, unknown> | undefined;
    },
    legs: { account: AccountRow; amount: number }[],
    at: number,
  ): number => {
    const id = repo.insertTransaction({
      publicId: newId('ltx'),
      kind: tx.kind,
      key: tx.key,
      fingerprint: tx.fingerprint,
      memo: tx.memo ?? null,
      metadata: tx.metadata === undefined ? null : JSON.stringify(tx.metadata),
      at,
    });
    for (const { account, amount } of legs) {
      repo.insertPosting(id, account.id, account.currency, amount);
      try {
        repo.addToBalance(account.id, amount);
      } catch (error) {
        throw mapConstraint(error, account);
      }
    }
    const { actor } = ctx;
    // Routes that move money require a session; reaching here as a visitor is a wiring bug.
    if (actor.type === 'visitor') throw new Error('ledger: a visitor cannot move money');
    repo.insertAudit({
      transactionId: id,
      operation,
      actorType: actor.type,
      actorUserId: actor.type === 'user' ? actor.userId : null,
      actorName: actor.type === 'user' ? null : actor.name,
      requestId: ctx.requestId ?? null,
      at,
    });
    return id;
  };

  const mapConstraint = (error: unknown, account: AccountRow): unknown => {
    const failure = sqliteError(error);
    if (!failure?.code.startsWith('SQLITE_CONSTRAINT')) return error;
    if (failure.message.includes('ledger_accounts_balance_check'))
      return new AppError('INSUFFICIENT_FUNDS', `The ${account.currency} balance is lower than the amount.`, {
        field: 'amount',
      });
    if (failure.message.includes('ledger_accounts_resolved_check'))
      return new AppError('ESCROW_ALREADY_RESOLVED', 'This escrow was released or returned already.');
    if (failure.message.includes('ledger_accounts_integer_check'))
      return invalidInput([{ field: 'amount', message: 'The balance would leave the range of safe integers.' }]);
    return error;
  };

  /** The committed transaction and its event: the users whose wallets it changed. */
  const committed = (id: number): Outcome => {
    const view = viewOf(repo.transactionById(id) as TransactionRow, false);
    const owners = [
      ...new Set(view.postings.flatMap((p) => (p.account.kind === 'user_wallet' ? [p.account.userId] : []))),
    ];
    const users = repo.publicIdsOf(owners);
    return {
      view,
      event: {
        transactionId: view.id,
        kind: view.kind,
        userIds: users.map((u) => u.id),
        userPublicIds: users.map((u) => u.publicId),
      },
    };
  };

  const publish = (outcome: Outcome) => {
    if (outcome.event) bus.publish(LEDGER_CHANNEL, { type: LEDGER_POSTED, payload: outcome.event });
  };

  /** Runs `body` as one immediate transaction (or a savepoint in the caller's), events after commit. */
  const execute = (ctx: LedgerContext, body: () => Outcome): LedgerTransaction => {
    if (ctx.tx) {
      if (!client.inTransaction) throw new Error('ledger: ctx.tx was given but no transaction is open');
      const outcome = client.transaction(body)();
      const { tx } = ctx;
      tx.afterCommit(() => publish(outcome));
      return outcome.view;
    }
    // Publishing here would announce a change the outer transaction may still roll back.
    if (client.inTransaction)
      throw new Error('ledger: called inside an open transaction without ctx.tx; its events would precede the commit');
    const outcome = repo.db.transaction(body, { behavior: 'immediate' });
    publish(outcome);
    return outcome.view;
  };

  return {
    /**
     * A transaction of `legs` that sum to zero per currency. Retrying with the same key returns the
     * first transaction (`replayed: true`) and writes nothing; a key is taken only by a commit, so a
     * request refused for insufficient funds may be retried with its key once funds arrive.
     */
    post({ ctx, input }: { ctx: LedgerContext; input: PostInput }): LedgerTransaction {
      checkPost(input);
      const fingerprint = fingerprintOf('post', {
        kind: input.kind,
        legs: input.legs.map((leg) => [accountKey(leg.account), leg.amount]).sort(),
        memo: input.memo,
        metadata: input.metadata,
      });
      return execute(ctx, () => {
        const first = replay(input.idempotencyKey, fingerprint);
        if (first) return first;
        const at = now();
        const legs = input.legs.map((leg) => ({ account: ensureAccount(leg.account, at), amount: leg.amount }));
        const id = write(
          ctx,
          'post',
          { kind: input.kind, key: input.idempotencyKey, fingerprint, memo: input.memo, metadata: input.metadata },
          legs,
          at,
        );
        return committed(id);
      });
    },

    /** The seller's funds move into the trade's escrow; one lock per trade and currency. */
    lockEscrow({
      ctx,
      input,
    }: {
      ctx: LedgerContext;
      input: {
        tradeRef: string;
        sellerId: number;
        currency: LedgerCurrency;
        amount: number;
        idempotencyKey: string;
        memo?: string;
      };
    }): LedgerTransaction {
      const issues: FieldIssue[] = [];
      checkCommon(input, issues);
      checkReference(input.tradeRef, 'tradeRef', issues);
      checkRef(walletOf(input.sellerId, input.currency), 'seller', issues);
      if (!isPositiveAmount(input.amount))
        issues.push({ field: 'amount', message: 'An amount is a positive whole number of minor units.' });
      if (issues.length > 0) throw invalidInput(issues);
      const { tradeRef, sellerId, currency, amount, memo } = input;
      const fingerprint = fingerprintOf('lockEscrow', { tradeRef, sellerId, currency, amount, memo });
      return execute(ctx, () => {
        const first = replay(input.idempotencyKey, fingerprint);
        if (first) return first;
        const existing = repo.escrowAccount(tradeRef, currency);
        if (existing?.resolvedAt) throw escrowResolved();
        if (existing)
          throw new AppError('ESCROW_ALREADY_LOCKED', `The ${currency} escrow of ${tradeRef} is locked already.`);
        const at = now();
        const seller = ensureAccount(walletOf(sellerId, currency), at);
        const escrow = repo.insertAccount({
          kind: 'trade_escrow',
          ownerId: sellerId,
          currency,
          reference: tradeRef,
          allowNegative: 0,
          at,
        });
        const id = write(
          ctx,
          'lockEscrow',
          { kind: 'escrow_lock', key: input.idempotencyKey, fingerprint, memo, metadata: { tradeRef } },
          [
            { account: seller, amount: -amount },
            { account: escrow, amount },
          ],
          at,
        );
        return committed(id);
      });
    },

    /** The whole escrow leaves once: to the buyer, less `fee` to fee income. */
    releaseEscrow({
      ctx,
      input,
    }: {
      ctx: LedgerContext;
      input: {
        tradeRef: string;
        currency: LedgerCurrency;
        buyerId: number;
        fee: number;
        idempotencyKey: string;
        memo?: string;
      };
    }): LedgerTransaction {
      const issues: FieldIssue[] = [];
      checkCommon(input, issues);
      checkReference(input.tradeRef, 'tradeRef', issues);
      checkRef(walletOf(input.buyerId, input.currency), 'buyer', issues);
      if (!Number.isSafeInteger(input.fee) || input.fee < 0)
        issues.push({ field: 'fee', message: 'A fee is a whole number of minor units, zero or more.' });
      if (issues.length > 0) throw invalidInput(issues);
      const { tradeRef, currency, buyerId, fee, memo } = input;
      const fingerprint = fingerprintOf('releaseEscrow', { tradeRef, currency, buyerId, fee, memo });
      return execute(ctx, () => {
        const first = replay(input.idempotencyKey, fingerprint);
        if (first) return first;
        const at = now();
        const escrow = ensureAccount(escrowOf(tradeRef, currency), at);
        if (escrow.resolvedAt) throw escrowResolved();
        if (fee >= escrow.balance)
          throw invalidInput([{ field: 'fee', message: `The fee must be below the escrowed ${escrow.balance}.` }]);
        const legs = [
          { account: escrow, amount: -escrow.balance },
          { account: ensureAccount(walletOf(buyerId, currency), at), amount: escrow.balance - fee },
        ];
        if (fee > 0) legs.push({ account: ensureAccount(systemAccount('fee_income', currency), at), amount: fee });
        const id = write(
          ctx,
          'releaseEscrow',
          { kind: 'escrow_release', key: input.idempotencyKey, fingerprint, memo, metadata: { tradeRef } },
          legs,
          at,
        );
        if (!repo.resolveEscrow(escrow.id, 'released', at)) throw escrowResolved();
        return committed(id);
      });
    },

    /** The whole escrow goes back to the seller who locked it, once. */
    returnEscrow({
      ctx,
      input,
    }: {
      ctx: LedgerContext;
      input: { tradeRef: string; currency: LedgerCurrency; idempotencyKey: string; memo?: string };
    }): LedgerTransaction {
      const issues: FieldIssue[] = [];
      checkCommon(input, issues);
      checkReference(input.tradeRef, 'tradeRef', issues);
      if (!isCurrency(input.currency)) issues.push({ field: 'currency', message: 'The currency is BTC or USDT.' });
      if (issues.length > 0) throw invalidInput(issues);
      const { tradeRef, currency, memo } = input;
      const fingerprint = fingerprintOf('returnEscrow', { tradeRef, currency, memo });
      return execute(ctx, () => {
        const first = replay(input.idempotencyKey, fingerprint);
        if (first) return first;
        const at = now();
        const escrow = ensureAccount(escrowOf(tradeRef, currency), at);
        if (escrow.resolvedAt) throw escrowResolved();
        const seller = ensureAccount(walletOf(escrow.ownerId ?? 0, currency), at);
        const id = write(
          ctx,
          'returnEscrow',
          { kind: 'escrow_return', key: input.idempotencyKey, fingerprint, memo, metadata: { tradeRef } },
          [
            { account: escrow, amount: -escrow.balance },
            { account: seller, amount: escrow.balance },
          ],
          at,
        );
        if (!repo.resolveEscrow(escrow.id, 'returned', at)) throw escrowResolved();
        return committed(id);
      });
    },

    /** BTC and USDT of a user; zero where no wallet exists yet (spec section 9: default balances are zero). */
    balances(userId: number): Record<LedgerCurrency, number> {
      const result: Record<LedgerCurrency, number> = { BTC: 0, USDT: 0 };
      for (const row of repo.balancesOf(userId)) result[row.currency] = row.balance;
      return result;
    },

    /** An account's balance and state, or undefined before its first posting. */
    account(ref: AccountRef): AccountRow | undefined {
      if (ref.kind === 'user_wallet') return repo.walletAccount(ref.userId, ref.currency);
      if (ref.kind === 'trade_escrow') return repo.escrowAccount(ref.reference, ref.currency);
      return repo.systemAccount(ref.kind, ref.currency);
    },

    transaction(publicId: string): LedgerTransaction | undefined {
      const row = repo.transactionByPublicId(publicId);
      return row ? viewOf(row, false) : undefined;
    },

    /** The transaction an idempotency key committed, if any (a retry that must answer the first result). */
    transactionByKey(idempotencyKey: string): LedgerTransaction | undefined {
      const row = repo.transactionByKey(idempotencyKey);
      return row ? viewOf(row, true) : undefined;
    },

    /**
     * A user's transactions, newest first, each with what it did to their wallets. `before` is the
     * `nextBefore` of the previous page; pages never shift, the ledger being append-only.
     */
    history(
      userId: number,
      { before, limit = HISTORY_PAGE_SIZE }: { before?: string; limit?: number } = {},
    ): { items: UserHistoryEntry[]; nextBefore: string | null } {
      let beforeId = Number.MAX_SAFE_INTEGER;
      if (before !== undefined) {
        const row = repo.transactionByPublicId(before);
        if (!row) throw notFound('The transaction', 'before');
        beforeId = row.id;
      }
      const size = Math.min(Math.max(1, Math.trunc(limit)), HISTORY_PAGE_SIZE);
      // One more than the page, to know whether another follows.
      const rows = repo.historyOf(userId, beforeId, size + 1);
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

const escrowResolved = () => new AppError('ESCROW_ALREADY_RESOLVED', 'This escrow was released or returned already.');

export type LedgerService = ReturnType<typeof createLedgerService>;
