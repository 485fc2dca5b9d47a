import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { TradeChangedPayload } from '../notifications/trade-events.ts';
import type { TradeAccess } from './access.ts';
import { systemLine } from './chat.ts';
import { GIFT_CARDS_GROUP, type TradesDeps } from './deps.ts';
import { DEFAULT_DISPUTE_DEADLINES, startDisputeClock } from './dispute-clock.ts';
import { announceChange, changedEvent } from './events.ts';
import type { TradeRow } from './repository.ts';
import {
  type EscrowMove,
  roleMayEver,
  statusesAfter,
  type TradeAction,
  type Transition,
  transitionFor,
} from './state-machine.ts';
import type { TradeView } from './trade-view.ts';

// Every later transition of state-machine.ts (docs/trades.md "How a transition is applied"): one
// immediate SQLite transaction with its ledger movement, audit row and chat line; events wait for
// the commit.

/** Who moves the trade: a party, a moderator, or (id null) the system. */
export interface TransitionActor {
  id: number | null;
  role: TradeActorRole;
}

export interface TransitionDetails {
  disputeReasonId?: string;
  disputeText?: string;
  note?: string;
}

/** Who may not do what, in words (`errors.<key>`): the action belongs to the other side. */
const FORBIDDEN_ACTION: Record<TradeAction, [string, string]> = {
  mark_paid: ['trade_only_buyer_marks_paid', 'Only the buyer marks a trade paid.'],
  release: ['trade_only_seller_releases', 'Only the seller releases the coins.'],
  cancel: ['trade_only_parties_cancel', 'Only the buyer or the seller can cancel a trade.'],
  cancel_unredeemed: ['gift_cards_only_seller_returns', 'Only the seller can give the gift cards back.'],
  open_dispute: ['trade_only_parties_dispute', 'Only the buyer or the seller can open a dispute.'],
  expire: ['trade_only_parties_cancel', 'Only the buyer or the seller can cancel a trade.'],
  resolve_for_buyer: ['moderators_only', 'For moderators only.'],
  resolve_for_seller: ['moderators_only', 'For moderators only.'],
  reopen: ['moderators_only', 'For moderators only.'],
};

const CHANGE_OF: Record<TradeAction, TradeChangedPayload['action']> = {
  mark_paid: 'paid',
  release: 'released',
  cancel: 'cancelled',
  cancel_unredeemed: 'cancelled',
  expire: 'expired',
  open_dispute: 'disputed',
  resolve_for_buyer: 'resolved',
  resolve_for_seller: 'resolved',
  reopen: 'reopened',
};

export const stateChanged = (status: TradeStatus) =>
  new AppError('TRADE_STATE_CHANGED', 'This trade has moved on; reload it to see where it stands.', {
    key: 'trade_state_changed',
    meta: { status },
  });

/** The escrow reference of a reopened trade's next round: `<hash>-r1`, `<hash>-r2`, … */
const nextRound = (row: TradeRow) => {
  const round = (row.escrowRef.match(/-r(\d+)$/)?.[1] ?? '0') as string;
  return `${row.hash}-r${Number(round) + 1}`;
};

/** The rule's escrow move through the ledger, inside the caller's transaction (`ctx.tx`). */
async function moveEscrow(
  { ledger, repo }: TradesDeps,
  ctx: ServiceContext,
  row: TradeRow,
  move: EscrowMove,
  action: TradeAction,
): Promise<{ escrowRef: string; ledgerTx: string | null }> {
  const memo = `trade ${row.hash}: ${action}`;
  const tradeRef = row.escrowRef;
  if (move === 'release_to_buyer') {
    // A merchant buys for its customers: what they paid for collects in its merchant balance (docs/kiosks-and-merchants.md).
    const into = (await repo.isMerchant(row.buyerId)) ? 'merchant_balance' : 'user_wallet';
    const input = { tradeRef, currency: row.cryptoCode, buyerId: row.buyerId, fee: row.feeAmount, memo, into } as const;
    const posted = await ledger.releaseEscrow(ctx, { ...input, idempotencyKey: `trade:${tradeRef}:release` });
    return { escrowRef: tradeRef, ledgerTx: posted.id };
  }
  if (move === 'return_to_seller') {
    const input = { tradeRef, currency: row.cryptoCode, idempotencyKey: `trade:${tradeRef}:return`, memo };
    return { escrowRef: tradeRef, ledgerTx: (await ledger.returnEscrow(ctx, input)).id };
  }
  if (move === 'lock_again') {
    // A resolved escrow stays resolved: the reopened trade gets a fresh one.
    const escrowRef = nextRound(row);
    const input = {
      tradeRef: escrowRef,
      sellerId: row.sellerId,
      currency: row.cryptoCode,
      amount: row.cryptoAmount + row.feeAmount,
      idempotencyKey: `trade:${escrowRef}:lock`,
      memo,
    };
    return { escrowRef, ledgerTx: (await ledger.lockEscrow(ctx, input)).id };
  }
  return { escrowRef: tradeRef, ledgerTx: null };
}

/** What one transition is: the action, by whom, on which trade as read, under which rule. */
interface Step {
  row: TradeRow;
  rule: Transition;
  action: TradeAction;
  actor: TransitionActor;
  details: TransitionDetails;
  at: number;
}

/** The guarded status update: what the new status sets, everything else as it was. */
async function changeStatus({ repo }: TradesDeps, { row, rule, action, actor, details, at }: Step, escrowRef: string) {
  const ends = rule.to !== 'paid' && rule.to !== 'dispute_open';
  const opensDispute = action === 'open_dispute';
  const changed = await repo.changeStatus({
    id: row.id,
    from: row.status,
    to: rule.to,
    at,
    paidAt: action === 'mark_paid' ? at : row.paidAt,
    endedAt: ends ? at : null,
    disputedAt: rule.to === 'dispute_open' ? at : row.disputedAt,
    disputeReasonId: opensDispute ? (details.disputeReasonId ?? null) : row.disputeReasonId,
    disputeText: opensDispute ? (details.disputeText ?? null) : row.disputeText,
    disputeOpenedBy: opensDispute ? actor.id : row.disputeOpenedBy,
    resolvedBy: actor.role === 'moderator' ? actor.id : row.resolvedBy,
    escrowRef,
  });
  // Cannot happen inside an immediate transaction that just read the row; kept as the guard.
  if (!changed) throw stateChanged(row.status);
}

/** The append-only audit row and the system line in the chat. */
async function record({ repo }: TradesDeps, { row, rule, action, actor, details, at }: Step, ledgerTx: string | null) {
  await repo.insertTransition({
    tradeId: row.id,
    action,
    fromStatus: row.status,
    toStatus: rule.to,
    actorId: actor.id,
    actorRole: actor.role,
    ledgerTransactionId: ledgerTx,
    note: details.note ?? null,
    at,
  });
  await systemLine(repo, row.id, `trade.system.${rule.to}`, at);
}

/**
 * A dispute opened: its clocks. A moderator's reopening is theirs at once; its own trail row says
 * who, so no `dispute_taken` row follows it (the statistics do not let a reopening answer itself,
 * decision 162).
 */
function openDisputeClock({ repo, disputeDeadlines = DEFAULT_DISPUTE_DEADLINES }: TradesDeps, step: Step) {
  const { row, actor, at } = step;
  return startDisputeClock(repo, disputeDeadlines, { tradeId: row.id, actorId: actor.id, actorRole: actor.role, at });
}

/** The action's own checks on the trade as read inside the transaction (its status cannot move meanwhile). */
export type TransitionCheck = (row: TradeRow, role: TradeActorRole) => Promise<void> | void;

/**
 * Applies `action` by `actor` in one transaction: `check` on the trade as read there, the guarded
 * status update, the escrow move, the audit row and a chat line. A repeat of the same action that
 * already took effect answers the trade as it is (a double click), anything else from a status
 * that no longer allows it is TRADE_STATE_CHANGED. The ledger records `ctx.actor`.
 */
export function applyTransition(
  deps: TradesDeps,
  ctx: ServiceContext,
  hash: string,
  step: { action: TradeAction; actor: TransitionActor; details?: TransitionDetails; check?: TransitionCheck },
): Promise<TradeRow> {
  const { repo, bus, now } = deps;
  const { action, actor, details = {}, check } = step;
  return immediate(repo.db, async (tx) => {
    const row = await repo.byHash(hash);
    if (!row) throw notFound('Trade', 'id');
    await check?.(row, actor.role);
    const rule = transitionFor(action, row.status, actor.role);
    if (!rule) {
      if (statusesAfter(action, actor.role).includes(row.status)) return row;
      throw stateChanged(row.status);
    }
    const settlement = row.paymentGroupSlug === GIFT_CARDS_GROUP ? deps.giftCardSettlement : undefined;
    await settlement?.check(row, action, actor);
    const applied: Step = { row, rule, action, actor, details, at: Math.max(now(), row.updatedAt) };
    const ledgerCtx: ServiceContext = { actor: ctx.actor, tx, ...(ctx.requestId ? { requestId: ctx.requestId } : {}) };
    const { escrowRef, ledgerTx } = await moveEscrow(deps, ledgerCtx, row, rule.escrow, action);
    await changeStatus(deps, applied, escrowRef);
    await settlement?.apply(row, rule.to, action, actor, applied.at);
    if (rule.to === 'released' || rule.to === 'dispute_won_buyer') {
      await repo.countCompleted(row.buyerId, row.sellerId, row.usdAmountCents);
      // The fee's affiliate shares, from fee income in this same transaction (issue 20).
      await deps.affiliates?.earn(ledgerCtx, { ...row, escrowRef }, rule.to);
    }
    await record(deps, applied, ledgerTx);
    // The dispute's deadlines start with it (dispute-clock.ts); a moderator's reopening is theirs.
    if (rule.to === 'dispute_open') await openDisputeClock(deps, applied);
    const updated = (await repo.byHash(hash)) as TradeRow;
    const event = changedEvent(updated, CHANGE_OF[action], row.status, actor.id, actor.role);
    await deps.webhooks?.tradeChanged(tx, event);
    // Queued after the ledger's own events: they go out in that order once committed.
    tx.afterCommit(() => announceChange(bus, updated, event));
    return updated;
  });
}

/** What a party's action checks besides who may do it. */
export interface PartyStep {
  details?: TransitionDetails;
  /**
   * Before the transaction, on the trade as first read: checks whose own outcome must stand
   * whatever the transition does (a release code, whose wrong attempts count even when refused).
   */
  before?: TransitionCheck;
  /** Inside the transaction, on the trade as read there: checks of state that must not move meanwhile. */
  check?: TransitionCheck;
}

/**
 * A party's (or a moderator's) action: 404 for strangers, 403 when this side never may, then
 * the action's own checks and the transition; answers the trade as its reader sees it.
 */
export async function partyAction(
  deps: TradesDeps,
  { readable, view }: TradeAccess,
  ctx: PersonContext,
  hash: string,
  step: PartyStep & { action: TradeAction },
): Promise<TradeView> {
  const { action, details = {}, before, check } = step;
  const userId = ctx.auth.user.id;
  const { row, role } = await readable(hash, userId);
  const partyRole =
    role === 'moderator' && (action === 'resolve_for_buyer' || action === 'resolve_for_seller' || action === 'reopen')
      ? 'moderator'
      : role;
  if (!roleMayEver(action, partyRole)) {
    const [key, message] = FORBIDDEN_ACTION[action];
    throw new AppError('FORBIDDEN', message, { key });
  }
  await before?.(row, partyRole);
  const actor = { id: userId, role: partyRole };
  const updated = await applyTransition(deps, ctx, hash, { action, actor, details, ...(check ? { check } : {}) });
  return view(updated, userId, role);
}

/** `transition` and `act` with the area's deps bound, for the verbs (TradesParts). */
export function createTransition(deps: TradesDeps, access: TradeAccess) {
  return {
    transition: (ctx: ServiceContext, hash: string, action: TradeAction, actor: TransitionActor) =>
      applyTransition(deps, ctx, hash, { action, actor }),
    act: (ctx: PersonContext, hash: string, action: TradeAction, step: PartyStep = {}): Promise<TradeView> =>
      partyAction(deps, access, ctx, hash, { ...step, action }),
  };
}

export type TradeTransition = ReturnType<typeof createTransition>;
