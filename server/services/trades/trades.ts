import type { JobObserver } from '../../jobs/every.ts';
import type { TradeChannelAccess } from '../../realtime/channels.ts';
import { bindVerb, type PersonContext, type ServiceContext } from '../context.ts';
import { createTradeAccess } from './access.ts';
import { cancelTrade, cancelUnredeemed } from './cancel.ts';
import type { TradesDeps, TradesParts } from './deps.ts';
import { openDispute } from './dispute.ts';
import { escalateDue, startEscalationJob } from './escalation.ts';
import { expireDue, startExpiryJob } from './expiry.ts';
import { markPaid } from './mark-paid.ts';
import { postMessage, publishStored, recordStored, tradeMessages } from './messages.ts';
import { disputeQueue, reopenTrade, resolveDispute } from './moderation.ts';
import { setPaymentDetails } from './payment-details.ts';
import { activeTrades, canFollowTrade, getTrade, tradeAccess } from './read.ts';
import { releaseTrade } from './release.ts';
import { startTrade } from './start.ts';
import { takeDispute } from './take.ts';
import { createTransition } from './transition.ts';

// Trades (issue 6, docs/trades.md): the start, which locks the seller's coins and fee in escrow,
// and every later transition of state-machine.ts, each one SQLite transaction with its ledger
// movement, audit row and chat line; events go out after the commit. One verb per file; this
// wires them to the area's deps, who may read a trade (access.ts) and the transition.

export type { TradeMessageView } from './chat.ts';
export type { TradesDeps } from './deps.ts';
export { TRADES_CHANNEL } from './events.ts';
export { AMOUNT_TOLERANCE, type StartInput } from './start.ts';

/** The verb with the area's parts bound: what callers see is `verb(ctx, input)`. */
export function createTradesService(deps: TradesDeps) {
  const access = createTradeAccess(deps);
  const parts: TradesParts = { ...deps, ...access, ...createTransition(deps, access) };
  return {
    /** Starts a trade on an offer: every rule of the offer and the start gate, then escrow. */
    start: bindVerb(parts, startTrade),
    get: bindVerb(parts, getTrade),
    /** The reader's running trades; `alarmedTrades` are those waiting on them. */
    active: (ctx: PersonContext) => activeTrades(parts, ctx),
    markPaid: bindVerb(parts, markPaid),
    release: bindVerb(parts, releaseTrade),
    cancel: bindVerb(parts, cancelTrade),
    /** Gift-card trades: the seller gives the cards back, stating no code was redeemed. */
    returnUnredeemed: bindVerb(parts, cancelUnredeemed),
    openDispute: bindVerb(parts, openDispute),
    /** The seller writes where the buyer pays, while the trade waits for payment. */
    setPaymentDetails: bindVerb(parts, setPaymentDetails),
    resolve: bindVerb(parts, resolveDispute),
    /** A moderator takes an open dispute: theirs to decide within the decision's deadline. */
    take: bindVerb(parts, takeDispute),
    reopen: bindVerb(parts, reopenTrade),
    /** Open disputes, overdue and escalated first: the moderators' queue. */
    disputes: bindVerb(parts, disputeQueue),
    expireDue: (ctx: ServiceContext) => expireDue(parts, ctx),
    /** Runs expireDue every `intervalMs`; returns the stop function. */
    startExpiryJob: (intervalMs: number, onError: (error: unknown) => void, observer?: JobObserver) =>
      startExpiryJob(parts, intervalMs, onError, observer),
    /** Notes missed answers and escalates disputes whose moderator deadline passed. */
    escalateDisputes: (ctx: ServiceContext) => escalateDue(parts, ctx),
    /** Runs escalateDisputes every `intervalMs`; returns the stop function. */
    startEscalationJob: (intervalMs: number, onError: (error: unknown) => void, observer?: JobObserver) =>
      startEscalationJob(parts, intervalMs, onError, observer),
    /** May the acting user follow `trade:<hash>` on the realtime hub: its parties and moderators. */
    canFollow: bindVerb(parts, canFollowTrade),

    // ——— chat ———
    messages: bindVerb(parts, tradeMessages),
    postMessage: bindVerb(parts, postMessage),

    // ——— hooks for the uploads service (uploads.ts) ———
    /** The trade and the reader's role in it; 404 for anyone who may not read it. */
    access: bindVerb(parts, tradeAccess),
    /** Publishes a chat line another service stored (an attachment) as postMessage does its own. */
    publishStored: bindVerb(parts, publishStored),
    recordStored: bindVerb(parts, recordStored),
  };
}

export type TradesService = ReturnType<typeof createTradesService>;

/** The realtime hub's question (server/realtime/channels.ts) answered by `canFollow` as that user. */
export const tradeChannelAccess =
  (trades: Pick<TradesService, 'canFollow'>): TradeChannelAccess =>
  (hash, userId) =>
    trades.canFollow({ actor: { type: 'user', userId } }, { hash });
