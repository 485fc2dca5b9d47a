import type { TradeActorRole } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, minorToMajor } from '../../../src/lib/shared/money.ts';
import { knownOfferTags } from '../../../src/lib/shared/offer-rules.ts';
import { sameName } from '../../../src/lib/shared/person-name.ts';
import { isBlocking } from '../../../src/lib/shared/trade-requirements.ts';
import type {
  FlowStep,
  PayerCheckView,
  TradeRequirementView,
  TradeView,
} from '../../../src/lib/shared/views/trades.ts';
import { BANK_TRANSFERS_GROUP } from '../bank-accounts/share.ts';
import { GIFT_CARDS_GROUP } from './deps.ts';
import { disputeClocksView, staffMayDecide } from './dispute-clock.ts';
import { needsPaymentDetails } from './payment-details.ts';
import type { RequirementRow, TradeRow } from './repository.ts';
import { isCancelled, isCompleted, transitionFor } from './state-machine.ts';

// A trade as its parties and moderators read it: the "Trade (lite)" and "Trade (chat)" shapes of
// spec section 3 in one object, plus what this reader may do now. The shape (TradeView) is the
// API's contract in src/lib/shared/views/trades.ts.

export type { FlowStep, TradeRequirementView, TradeView };

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export interface ViewContext {
  readerId: number;
  role: TradeActorRole;
  now: number;
  disputeWaitMs: number;
  sameIp: boolean;
  releaseNeedsCode: boolean;
  disputeOpenedBy: string | null;
  /** The account the seller shared into the trade (issue 19), or null. */
  bankAccount: TradeView['bankAccount'];
  /** The dispute's counterpart's first line since it opened (unix ms), or null. */
  answeredAt: number | null;
  /** A moderator reader's role among the staff (who may take and decide at which level). */
  staffRole: 'admin' | 'moderator' | null;
}

/**
 * What the seller (and a moderator) needs before releasing on a no-third-parties offer: the name
 * the buyer says they pay from beside the buyer's verified name (decision 112); null for the buyer.
 */
function payerCheckFor(ctx: Pick<ViewContext, 'readerId' | 'role'>, row: TradeRow): PayerCheckView | null {
  if (row.payerName === null || (ctx.readerId !== row.sellerId && ctx.role !== 'moderator')) return null;
  const verifiedName = row.buyerVerifiedName;
  return {
    payerName: row.payerName,
    verifiedName,
    matches: verifiedName === null ? null : sameName(row.payerName, verifiedName),
  };
}

export function flowOf(requirements: RequirementRow[]): TradeView['flow'] {
  const toView = (r: RequirementRow): TradeRequirementView => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    optional: r.optional === 1,
  });
  const beforeReveal = requirements.filter((r) => r.stage === 'before_reveal').map(toView);
  const beforePaid = requirements.filter((r) => r.stage === 'before_paid').map(toView);
  const step: FlowStep = beforeReveal.some(isBlocking)
    ? 'before_reveal_payment_details'
    : beforePaid.some(isBlocking)
      ? 'before_mark_as_paid'
      : 'done';
  return { step, state: { beforeRevealPaymentDetails: beforeReveal, beforeMarkAsPaid: beforePaid } };
}

export function disputeAvailableAt(row: TradeRow, disputeWaitMs: number): number | null {
  return row.paidAt === null ? null : row.paidAt + disputeWaitMs;
}

/** The dispute as the reader sees it, and what they may do now. */
function readerActions(
  row: TradeRow,
  ctx: ViewContext,
  flow: TradeView['flow'],
  revealed: boolean,
): Pick<TradeView, 'dispute' | 'actions'> {
  const availableAt = disputeAvailableAt(row, ctx.disputeWaitMs);
  const may = (action: Parameters<typeof transitionFor>[0]) =>
    transitionFor(action, row.status, ctx.role) !== undefined;
  const disputeOpen = may('open_dispute') && availableAt !== null && ctx.now >= availableAt;
  // Staff decide a dispute at its level and once taken only its taker (or an administrator).
  const staffMay = ctx.role === 'moderator' && staffMayDecide(row, ctx.readerId, ctx.staffRole);
  return {
    dispute: {
      available: disputeOpen,
      availableAt: seconds(availableAt),
      reasonId: row.disputeReasonId,
      text: row.disputeText,
      openedBy: ctx.disputeOpenedBy,
      ...disputeClocksView(row, ctx.answeredAt, ctx.now),
    },
    actions: {
      // Non-optional pending requirements hold the buyer back (spec section 4).
      markPaid: may('mark_paid') && flow.step === 'done',
      release: may('release'),
      cancel: may('cancel'),
      dispute: disputeOpen,
      resolve: may('resolve_for_buyer') && staffMay,
      reopen: may('reopen'),
      take: row.status === 'dispute_open' && staffMay && row.disputeModeratorId === null,
      // The seller writes where to pay until the buyer marked it paid (payment-details.ts); never
      // over instructions they may not read yet.
      paymentDetails: ctx.role === 'seller' && row.status === 'active_funded' && needsPaymentDetails(row) && revealed,
    },
  };
}

export function toTradeView(row: TradeRow, requirements: RequirementRow[], ctx: ViewContext): TradeView {
  const decimals = CRYPTO_DECIMALS[row.cryptoCode];
  const flow = flowOf(requirements);
  // The instructions are the owner's; the person who answered the offer sees them once the proofs
  // asked before reveal are in.
  const revealed =
    flow.step !== 'before_reveal_payment_details' || ctx.readerId === row.ownerId || ctx.role === 'moderator';
  const fiat = minorToMajor(row.fiatAmountMinor, row.fiatMinorUnits);
  const profile = (username: string) => `/profile/${username}`;
  const isResponder = ctx.readerId === row.responderId;
  const ownerUserName = row.ownerId === row.buyerId ? row.buyerUsername : row.sellerUsername;
  const tags = knownOfferTags(JSON.parse(row.tags) as string[]);
  return {
    id: row.hash,
    hash: row.hash,
    chatUrl: `/trade/${row.hash}`,
    offerUrl: `/offers/${row.offerHash}`,
    offerHash: row.offerHash,
    startedAt: seconds(row.startedAt) as number,
    expiresAt: seconds(row.expiresAt) as number,
    paidAt: seconds(row.paidAt),
    cancelledAt: isCancelled(row.status) ? seconds(row.endedAt) : null,
    endedAt: seconds(row.endedAt),
    isVendor: ctx.readerId === row.ownerId,
    isResponder,
    role: ctx.role,
    buyer: { username: row.buyerUsername, profile: profile(row.buyerUsername), avatarUrl: row.buyerAvatarUrl },
    seller: { username: row.sellerUsername, profile: profile(row.sellerUsername), avatarUrl: row.sellerAvatarUrl },
    isOpponentsSameIp: ctx.sameIp,
    paymentMethod: row.paymentMethodName,
    paymentMethodName: row.paymentMethodName,
    paymentMethodSlug: row.paymentMethodSlug,
    status: row.status,
    tradeCompleted: isCompleted(row.status),
    isReleaseError: false,
    isStatusChangeError: false,
    isFunded: row.status === 'active_funded' || row.status === 'paid' || row.status === 'dispute_open',
    isDisputed: row.status === 'dispute_open',
    isPaid: row.paidAt !== null,
    isGccTrade: row.paymentGroupSlug === GIFT_CARDS_GROUP,
    isBankTransferTrade: row.paymentGroupSlug === BANK_TRANSFERS_GROUP,
    paymentDetails: revealed ? row.paymentDetails : null,
    // Payment details like the instructions: hidden while proofs asked before reveal are missing.
    bankAccount: revealed ? ctx.bankAccount : null,
    payerName: row.payerName,
    payerCheck: payerCheckFor(ctx, row),
    cryptoCurrency: row.cryptoCode,
    cryptoAmount: fromMinorUnits(row.cryptoAmount, decimals),
    btcAmount:
      row.cryptoCode === 'BTC' ? { satoshi: row.cryptoAmount, btc: fromMinorUnits(row.cryptoAmount, decimals) } : null,
    fee: { amount: fromMinorUnits(row.feeAmount, decimals), percentage: row.feeBasisPoints / 100, paidBy: 'seller' },
    feePercentage: row.feeBasisPoints / 100,
    fiatAmount: fiat,
    fiatAmountRequested: fiat,
    currency: row.fiatCode,
    fiatDecimals: row.fiatMinorUnits,
    fiatPricePerBtc: minorToMajor(row.priceMinor, row.fiatMinorUnits),
    // The affiliate's id for moderators and the party they referred; the other party is not told.
    affiliateId: ctx.role === 'moderator' || ctx.readerId === row.affiliateReferralId ? row.affiliatePublicId : null,
    paymentWindowMinutes: row.paymentWindowMinutes,
    info: { tags, offerTerms: row.offerTerms, isResponder, ownerUserName },
    flow,
    ...readerActions(row, ctx, flow, revealed),
    releaseNeedsCode: ctx.role === 'seller' && ctx.releaseNeedsCode,
    version: row.version,
  };
}
