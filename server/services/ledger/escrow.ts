import type { LedgerCurrency } from '../../../db/schema/ledger.ts';
import type { LedgerTransactionKind } from '../../../src/lib/shared/ledger-kinds.ts';
import type { ServiceContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import { escrowOf, merchantBalanceOf, systemAccount, walletOf } from './accounts.ts';
import { checkCommon, checkRef, checkReference, isCurrency, isPositiveAmount } from './checks.ts';
import type { LedgerCore } from './execute.ts';
import { fingerprintOf } from './fingerprint.ts';
import type { AccountRow } from './repository.ts';
import type { LedgerTransaction, LockEscrowInput, ReleaseEscrowInput, ReturnEscrowInput } from './types.ts';
import { escrowResolved } from './write.ts';

// A trade's escrow: the seller's funds locked into it once per trade and currency, then the whole
// of it leaving once, released to the buyer or returned to the seller.

type EscrowInput = LockEscrowInput | ReleaseEscrowInput | ReturnEscrowInput;
type Legs = { account: AccountRow; amount: number }[];

/** The checks every escrow move makes, then its own (`more`): all that fail answer together. */
function check(input: EscrowInput, more: (issues: FieldIssue[]) => void): void {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  checkReference(input.tradeRef, 'tradeRef', issues);
  more(issues);
  if (issues.length > 0) throw invalidInput(issues);
}

/**
 * Runs one escrow move in its transaction, once per idempotency key: a repeat answers the first
 * result. `move` returns the legs to write at `at` (or throws), and what to do once they are written.
 */
function once(
  core: LedgerCore,
  ctx: ServiceContext,
  input: EscrowInput,
  op: { operation: string; kind: LedgerTransactionKind; fingerprint: string },
  move: (at: number) => Promise<{ legs: Legs; written?: () => Promise<void> }>,
): Promise<LedgerTransaction> {
  const { execute, replay, now, write, committed } = core;
  const { operation, kind, fingerprint } = op;
  return execute(ctx, async () => {
    const first = await replay(input.idempotencyKey, fingerprint);
    if (first) return first;
    const at = now();
    const { legs, written } = await move(at);
    const header = {
      kind,
      key: input.idempotencyKey,
      fingerprint,
      memo: input.memo,
      metadata: { tradeRef: input.tradeRef },
    };
    const id = await write(ctx, operation, header, legs, at);
    await written?.();
    return committed(id);
  });
}

/** The seller's funds move into the trade's escrow; one lock per trade and currency. */
async function lock(core: LedgerCore, ctx: ServiceContext, input: LockEscrowInput): Promise<LedgerTransaction> {
  check(input, (issues) => {
    checkRef(walletOf(input.sellerId, input.currency), 'seller', issues);
    if (!isPositiveAmount(input.amount))
      issues.push({ field: 'amount', message: 'An amount is a positive whole number of minor units.' });
  });
  const { tradeRef, sellerId, currency, amount, memo } = input;
  const fingerprint = fingerprintOf('lockEscrow', { tradeRef, sellerId, currency, amount, memo });
  const { ensureAccount, repo } = core;
  return once(core, ctx, input, { operation: 'lockEscrow', kind: 'escrow_lock', fingerprint }, async (at) => {
    const existing = await repo.escrowAccount(tradeRef, currency);
    if (existing?.resolvedAt) throw escrowResolved();
    if (existing)
      throw new AppError('ESCROW_ALREADY_LOCKED', `The ${currency} escrow of ${tradeRef} is locked already.`);
    const seller = await ensureAccount(walletOf(sellerId, currency), at);
    const escrow = await repo.insertAccount({
      kind: 'trade_escrow',
      ownerId: sellerId,
      currency,
      reference: tradeRef,
      allowNegative: 0,
      at,
    });
    const legs = [
      { account: seller, amount: -amount },
      { account: escrow, amount },
    ];
    return { legs };
  });
}

/** The trade's escrow account while it is still to leave, and how to mark it gone once it has. */
async function openEscrow(core: LedgerCore, tradeRef: string, currency: LedgerCurrency, at: number) {
  const escrow = await core.ensureAccount(escrowOf(tradeRef, currency), at);
  if (escrow.resolvedAt) throw escrowResolved();
  const resolved = (outcome: 'released' | 'returned') => async () => {
    if (!(await core.repo.resolveEscrow(escrow.id, outcome, at))) throw escrowResolved();
  };
  return { escrow, resolved };
}

/** The whole escrow leaves once: to the buyer (a merchant's balance for a merchant), less `fee` to fee income. */
async function release(core: LedgerCore, ctx: ServiceContext, input: ReleaseEscrowInput): Promise<LedgerTransaction> {
  check(input, (issues) => {
    checkRef(walletOf(input.buyerId, input.currency), 'buyer', issues);
    if (!Number.isSafeInteger(input.fee) || input.fee < 0)
      issues.push({ field: 'fee', message: 'A fee is a whole number of minor units, zero or more.' });
  });
  const { tradeRef, currency, buyerId, fee, memo, into = 'user_wallet' } = input;
  // `into` joins the fingerprint only when it is not the wallet: releases recorded before it keep theirs.
  const where = into === 'merchant_balance' ? { into } : {};
  const fingerprint = fingerprintOf('releaseEscrow', { tradeRef, currency, buyerId, fee, memo, ...where });
  const buyer = into === 'merchant_balance' ? merchantBalanceOf(buyerId, currency) : walletOf(buyerId, currency);
  const { ensureAccount } = core;
  return once(core, ctx, input, { operation: 'releaseEscrow', kind: 'escrow_release', fingerprint }, async (at) => {
    const { escrow, resolved } = await openEscrow(core, tradeRef, currency, at);
    if (fee >= escrow.balance)
      throw invalidInput([{ field: 'fee', message: `The fee must be below the escrowed ${escrow.balance}.` }]);
    const legs = [
      { account: escrow, amount: -escrow.balance },
      { account: await ensureAccount(buyer, at), amount: escrow.balance - fee },
    ];
    if (fee > 0) legs.push({ account: await ensureAccount(systemAccount('fee_income', currency), at), amount: fee });
    return { legs, written: resolved('released') };
  });
}

/** The whole escrow goes back to the seller who locked it, once. */
async function giveBack(core: LedgerCore, ctx: ServiceContext, input: ReturnEscrowInput): Promise<LedgerTransaction> {
  check(input, (issues) => {
    if (!isCurrency(input.currency)) issues.push({ field: 'currency', message: 'The currency is BTC or USDT.' });
  });
  const { tradeRef, currency, memo } = input;
  const fingerprint = fingerprintOf('returnEscrow', { tradeRef, currency, memo });
  return once(core, ctx, input, { operation: 'returnEscrow', kind: 'escrow_return', fingerprint }, async (at) => {
    const { escrow, resolved } = await openEscrow(core, tradeRef, currency, at);
    const seller = await core.ensureAccount(walletOf(escrow.ownerId ?? 0, currency), at);
    const legs = [
      { account: escrow, amount: -escrow.balance },
      { account: seller, amount: escrow.balance },
    ];
    return { legs, written: resolved('returned') };
  });
}

export function createEscrow(core: LedgerCore) {
  return {
    /** The seller's funds move into the trade's escrow; one lock per trade and currency. */
    lockEscrow: (ctx: ServiceContext, input: LockEscrowInput): Promise<LedgerTransaction> => lock(core, ctx, input),
    /** The whole escrow leaves once: to the buyer, less `fee` to fee income. */
    releaseEscrow: (ctx: ServiceContext, input: ReleaseEscrowInput): Promise<LedgerTransaction> =>
      release(core, ctx, input),
    /** The whole escrow goes back to the seller who locked it, once. */
    returnEscrow: (ctx: ServiceContext, input: ReturnEscrowInput): Promise<LedgerTransaction> =>
      giveBack(core, ctx, input),
  };
}
