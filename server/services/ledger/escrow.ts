import type { ServiceContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import { escrowOf, systemAccount, walletOf } from './accounts.ts';
import { checkCommon, checkRef, checkReference, isCurrency, isPositiveAmount } from './checks.ts';
import type { LedgerCore } from './execute.ts';
import { fingerprintOf } from './fingerprint.ts';
import type { LedgerTransaction, LockEscrowInput, ReleaseEscrowInput, ReturnEscrowInput } from './types.ts';
import { escrowResolved } from './write.ts';

// A trade's escrow: the seller's funds locked into it once per trade and currency, then the whole
// of it leaving once, released to the buyer or returned to the seller.

/** The seller's funds move into the trade's escrow; one lock per trade and currency. */
function lock(core: LedgerCore, ctx: ServiceContext, input: LockEscrowInput): LedgerTransaction {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  checkReference(input.tradeRef, 'tradeRef', issues);
  checkRef(walletOf(input.sellerId, input.currency), 'seller', issues);
  if (!isPositiveAmount(input.amount))
    issues.push({ field: 'amount', message: 'An amount is a positive whole number of minor units.' });
  if (issues.length > 0) throw invalidInput(issues);
  const { tradeRef, sellerId, currency, amount, memo } = input;
  const fingerprint = fingerprintOf('lockEscrow', { tradeRef, sellerId, currency, amount, memo });
  const { execute, replay, now, ensureAccount, write, committed, repo } = core;
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
}

/** The whole escrow leaves once: to the buyer, less `fee` to fee income. */
function release(core: LedgerCore, ctx: ServiceContext, input: ReleaseEscrowInput): LedgerTransaction {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  checkReference(input.tradeRef, 'tradeRef', issues);
  checkRef(walletOf(input.buyerId, input.currency), 'buyer', issues);
  if (!Number.isSafeInteger(input.fee) || input.fee < 0)
    issues.push({ field: 'fee', message: 'A fee is a whole number of minor units, zero or more.' });
  if (issues.length > 0) throw invalidInput(issues);
  const { tradeRef, currency, buyerId, fee, memo } = input;
  const fingerprint = fingerprintOf('releaseEscrow', { tradeRef, currency, buyerId, fee, memo });
  const { execute, replay, now, ensureAccount, write, committed, repo } = core;
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
}

/** The whole escrow goes back to the seller who locked it, once. */
function giveBack(core: LedgerCore, ctx: ServiceContext, input: ReturnEscrowInput): LedgerTransaction {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  checkReference(input.tradeRef, 'tradeRef', issues);
  if (!isCurrency(input.currency)) issues.push({ field: 'currency', message: 'The currency is BTC or USDT.' });
  if (issues.length > 0) throw invalidInput(issues);
  const { tradeRef, currency, memo } = input;
  const fingerprint = fingerprintOf('returnEscrow', { tradeRef, currency, memo });
  const { execute, replay, now, ensureAccount, write, committed, repo } = core;
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
}

export function createEscrow(core: LedgerCore) {
  return {
    /** The seller's funds move into the trade's escrow; one lock per trade and currency. */
    lockEscrow: (ctx: ServiceContext, input: LockEscrowInput): LedgerTransaction => lock(core, ctx, input),
    /** The whole escrow leaves once: to the buyer, less `fee` to fee income. */
    releaseEscrow: (ctx: ServiceContext, input: ReleaseEscrowInput): LedgerTransaction => release(core, ctx, input),
    /** The whole escrow goes back to the seller who locked it, once. */
    returnEscrow: (ctx: ServiceContext, input: ReturnEscrowInput): LedgerTransaction => giveBack(core, ctx, input),
  };
}
