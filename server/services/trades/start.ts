import { newTradeHash } from '../../../db/ids.ts';
import type { TradeActorRole } from '../../../db/schema/index.ts';
import { escrowFeeBasisPoints } from '../../../src/lib/shared/fees.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import { cryptoForFiat, escrowFeeOf } from '../../../src/lib/shared/offer-funding.ts';
import { nameIssue, normalizeName } from '../../../src/lib/shared/person-name.ts';
import { immediate, type PersonContext, type ServiceContext, type Transaction } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { OfferDetails } from '../offers/offers.ts';
import type { OfferRow } from '../offers/repository.ts';
import { BLOCK_MESSAGES } from '../offers/start-gate.ts';
import { systemLine } from './chat.ts';
import type { TradesDeps, TradesParts } from './deps.ts';
import { announcePaymentDetails, announceStart, changedEvent } from './events.ts';
import { lacksPaymentDetails } from './payment-details.ts';
import type { TradeRow } from './repository.ts';
import type { TradeView } from './trade-view.ts';

// The start of a trade (docs/trades.md "Starting"): the eight checks, in the spec's order, as the
// eight steps below, then the insert of the trade with the seller's coins and fee locked in escrow,
// all in one transaction. The first problem refuses the start.

/** How far the client's crypto amount may drift from the current price's before it must ask again. */
export const AMOUNT_TOLERANCE = 0.01;

export interface StartInput {
  offer_hash: string;
  amount_btc: string;
  amount_fiat: string;
  gold_terms: 0 | 1;
  original_data: string;
  payer_name?: string | undefined;
  /** The language the offer is read in (the start gate's words). */
  locale: Locale;
  /** The responder's address: the parties' "same IP" warning compares it. */
  ip: string | null;
  /**
   * A gift-card trade's buyer pays with cards (issue 18): the gift-cards service attaches them to
   * the new trade inside the start's transaction, so a card taken meanwhile undoes the start.
   */
  attachCards?: (trade: TradeRow) => Promise<void>;
}

type Offer = OfferDetails['offer'];

/** What the amounts come to at the current price (step 6). */
interface Amounts {
  crypto: 'BTC' | 'USDT';
  cryptoDecimals: number;
  fiatMinor: number;
  priceMinor: number;
  cryptoAmount: number;
  usdAmountCents: number;
}

/** 1. The start gate of the offer (spec section 5). */
function passStartGate({ blocks }: OfferDetails): void {
  const first = blocks[0];
  if (!first) return;
  throw new AppError('FORBIDDEN', BLOCK_MESSAGES[first.code], {
    key: `start_block_${first.code}`,
    ...(first.params ? { params: first.params } : {}),
  });
}

/**
 * 2. On a gift-card offer whose vendor sells, the person pays with gift cards: the start comes with
 * their cards (POST /rest/v1/gift-cards/trade/start). Where the vendor buys, the vendor adds
 * cards in the trade, and it starts like any other.
 */
function requireCardsWhereThePersonPaysWithThem(offer: Offer, input: StartInput): void {
  if (offer.isGiftCard && offer.type === 'sell' && !input.attachCards) {
    throw new AppError('GIFT_CARDS_REQUIRED', 'Choose the gift cards you pay with to start this trade.', {
      key: 'trade_gift_cards_required',
      meta: { action: 'gift_cards' },
    });
  }
}

/**
 * 2b. An offer that takes payment only from the buyer's own account asks the person paying in
 * whose name (spec section 5: `payer_name` only when the offer requires it; decision 112). The
 * name is what the seller compares with the buyer's verified name; anywhere else it is not kept.
 */
function payerNameOf(offer: Offer, input: StartInput): string | null {
  if (!offer.requirePayerName) return null;
  const key = nameIssue(input.payer_name ?? '');
  if (!key) return normalizeName(input.payer_name ?? '');
  const message =
    key === 'name_required'
      ? 'Enter the name on the account you pay from: this offer takes payment only from your own account.'
      : 'Enter the account holder’s name in letters, as your bank shows it.';
  throw invalidInput([{ field: 'payer_name', message, key: `payer_${key}` }]);
}

/** 3. The offer changed since the page was read (terms, limits, price type): the client reloads. */
function requireSameVersion(offerRow: OfferRow, originalData: string): void {
  let seen: { v?: unknown };
  try {
    seen = JSON.parse(originalData) as { v?: unknown };
  } catch {
    throw invalidInput([{ field: 'original_data', message: 'must be the originalData of the offer' }]);
  }
  if (typeof seen !== 'object' || seen === null || seen.v !== offerRow.updatedAt) {
    throw new AppError('OFFER_CHANGED', 'The vendor changed this offer. Reload the page to see it as it is now.', {
      key: 'trade_offer_changed',
      meta: { action: 'reload' },
    });
  }
}

/** 4. Gold offers' payment terms accepted; a verified identity for an ID-only buy offer. */
function requireTermsAndIdentity(offer: Offer, ctx: PersonContext, goldTerms: 0 | 1): void {
  if (offer.isGold && goldTerms !== 1) {
    throw invalidInput([
      { field: 'gold_terms', message: 'Accept the payment terms to start.', key: 'trade_gold_terms_required' },
    ]);
  }
  const personSells = offer.type === 'buy';
  if (personSells && offer.requireVerifiedId && ctx.auth.user.idVerifiedAt === null) {
    throw new AppError('FORBIDDEN', 'This vendor only buys from people with a verified identity.', {
      key: 'trade_id_verification_required',
    });
  }
}

/** 5. The fiat amount: one of the predefined amounts, else within the limits; in minor units. */
function fiatAmountOf({ offer, limits }: OfferDetails, amountFiat: string): number {
  const fiatMinor = toMinorUnits(amountFiat, offer.fiatDecimals);
  if (fiatMinor === undefined || fiatMinor <= 0) {
    throw invalidInput([{ field: 'amount_fiat', message: 'must be an amount above 0', key: 'trade_amount_invalid' }]);
  }
  const toMinor = (major: number) => Math.round(major * 10 ** offer.fiatDecimals);
  const predefined = offer.predefinedAmount.map(toMinor);
  if (predefined.length > 0 && !predefined.includes(fiatMinor)) {
    throw invalidInput([
      {
        field: 'amount_fiat',
        message: `Choose one of the offer's amounts: ${offer.predefinedAmount.join(', ')}.`,
        key: 'trade_amount_not_predefined',
        params: { amounts: offer.predefinedAmount.join(', ') },
      },
    ]);
  }
  if (fiatMinor < toMinor(limits.min) || fiatMinor > toMinor(limits.max)) {
    throw invalidInput([
      {
        field: 'amount_fiat',
        message: `The amount must be between ${limits.min} and ${limits.max} ${offer.fiatCurrency}.`,
        key: 'trade_amount_out_of_limits',
        params: { min: limits.min, max: limits.max, currency: offer.fiatCurrency },
      },
    ]);
  }
  return fiatMinor;
}

/** 6. The crypto amount at the current price; the client's must be within AMOUNT_TOLERANCE of it. */
function amountsAtPrice(offer: Offer, fiatMinor: number, amountCrypto: string): Amounts {
  const crypto = offer.cryptoCurrency as 'BTC' | 'USDT';
  const cryptoDecimals = CRYPTO_DECIMALS[crypto];
  const priceMinor = Math.round(offer.fiatPricePerCrypto * 10 ** offer.fiatDecimals);
  if (priceMinor <= 0) throw new AppError('RATE_UNAVAILABLE', 'There is no market price right now. Try again soon.');
  const cryptoAmount = cryptoForFiat(fiatMinor, priceMinor, cryptoDecimals);
  const claimed = toMinorUnits(amountCrypto, cryptoDecimals);
  if (
    claimed === undefined ||
    cryptoAmount <= 0 ||
    Math.abs(claimed - cryptoAmount) > cryptoAmount * AMOUNT_TOLERANCE
  ) {
    throw new AppError(
      'fiat_and_btc_amount_mismatch',
      'The price moved. Check the amounts at the current price and try again.',
      {
        field: 'amount_btc',
        key: 'fiat_and_btc_amount_mismatch',
        meta: {
          fiatPricePerCrypto: offer.fiatPricePerCrypto,
          amountCrypto: fromMinorUnits(cryptoAmount, cryptoDecimals),
        },
      },
    );
  }
  const usdAmountCents = Math.round((cryptoAmount / 10 ** cryptoDecimals) * offer.fiatUSDPricePerBtc * 100);
  return { crypto, cryptoDecimals, fiatMinor, priceMinor, cryptoAmount, usdAmountCents };
}

/**
 * 7. The trading limits of both sides' verification levels. Inside the transaction: two starts at
 * once cannot both fit into what a limit has left.
 */
async function withinTradingLimits(
  { checkTradingLimit }: TradesDeps,
  userId: number,
  ownerId: number,
  usdCents: number,
): Promise<void> {
  await checkTradingLimit?.(userId, usdCents);
  try {
    await checkTradingLimit?.(ownerId, usdCents);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new AppError(
      'TRADING_LIMIT_EXCEEDED',
      'The vendor cannot take a trade this size right now. Try a smaller amount.',
      {
        field: 'amount_fiat',
        key: 'trade_vendor_limit_exceeded',
      },
    );
  }
}

/** 8. The seller's coins and the fee into the trade's escrow; a short balance worded for whoever sells. */
async function lockSellerCoins(
  { ledger }: TradesDeps,
  ctx: ServiceContext,
  trade: { hash: string; sellerId: number; responderId: number; feeAmount: number },
  amounts: Amounts,
): Promise<string> {
  const { hash, sellerId, responderId, feeAmount } = trade;
  const { crypto, cryptoAmount, cryptoDecimals } = amounts;
  try {
    const posted = await ledger.lockEscrow(ctx, {
      tradeRef: hash,
      sellerId,
      currency: crypto,
      amount: cryptoAmount + feeAmount,
      idempotencyKey: `trade:${hash}:lock`,
      memo: `trade ${hash}: start`,
    });
    return posted.id;
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')) throw error;
    const total = fromMinorUnits(cryptoAmount + feeAmount, cryptoDecimals);
    throw sellerId === responderId
      ? new AppError('INSUFFICIENT_FUNDS', `Your ${crypto} balance does not cover ${total} ${crypto} with the fee.`, {
          field: 'amount_fiat',
          key: 'trade_insufficient_own_balance',
          params: { amount: total, currency: crypto },
        })
      : new AppError(
          'INSUFFICIENT_FUNDS',
          "The vendor's balance cannot cover this amount right now. Try a smaller one.",
          {
            field: 'amount_fiat',
            key: 'trade_insufficient_vendor_balance',
          },
        );
  }
}

/** What the checks settled: the offer as read in the transaction and the amounts at its price. */
interface Settled {
  offerRow: OfferRow;
  offer: Offer;
  amounts: Amounts;
  input: StartInput;
}

/** The trade's rows, the seller's escrow and the first chat line, inside the start's transaction. */
async function insertTrade(
  parts: TradesParts,
  ctx: PersonContext,
  tx: Transaction,
  { offerRow, offer, amounts, input }: Settled,
): Promise<{ row: TradeRow; role: TradeActorRole }> {
  const { repo, bus, now } = parts;
  const userId = ctx.auth.user.id;
  const feeBasisPoints = escrowFeeBasisPoints(offer.paymentGroup);
  const feeAmount = escrowFeeOf(amounts.cryptoAmount, feeBasisPoints);
  const ownerSells = offerRow.type === 'sell';
  const buyerId = ownerSells ? userId : offerRow.ownerId;
  const sellerId = ownerSells ? offerRow.ownerId : userId;
  const role: TradeActorRole = userId === buyerId ? 'buyer' : 'seller';
  const at = now();
  const hash = newTradeHash();
  const id = await repo.insertTrade({
    hash,
    offerId: offerRow.id,
    offerType: offerRow.type,
    ownerId: offerRow.ownerId,
    responderId: userId,
    buyerId,
    sellerId,
    cryptoCode: amounts.crypto,
    cryptoAmount: amounts.cryptoAmount,
    feeAmount,
    feeBasisPoints,
    escrowRef: hash,
    fiatCurrencyId: offerRow.fiatCurrencyId,
    fiatAmountMinor: amounts.fiatMinor,
    priceMinor: amounts.priceMinor,
    usdAmountCents: amounts.usdAmountCents,
    paymentMethodId: offerRow.paymentMethodId,
    paymentWindowMinutes: offerRow.paymentWindowMinutes,
    offerTerms: offerRow.terms,
    paymentDetails: offerRow.tradeInstructions,
    tags: offerRow.tags,
    payerName: payerNameOf(offer, input),
    affiliateId: (await parts.affiliates?.affiliateOf(buyerId, sellerId)) ?? null,
    startedAt: at,
    expiresAt: at + offerRow.paymentWindowMinutes * 60_000,
    responderIp: input.ip,
  });
  for (const requirement of offer.tradeRequirements) {
    await repo.insertRequirement({ tradeId: id, ...requirement, optional: requirement.optional ? 1 : 0, at });
  }
  const ledgerCtx: ServiceContext = { actor: ctx.actor, tx, ...(ctx.requestId ? { requestId: ctx.requestId } : {}) };
  const trade = { hash, sellerId, responderId: userId, feeAmount };
  const ledgerTransactionId = await lockSellerCoins(parts, ledgerCtx, trade, amounts);
  await repo.insertTransition({
    tradeId: id,
    action: 'start',
    fromStatus: null,
    toStatus: 'active_funded',
    actorId: userId,
    actorRole: role,
    ledgerTransactionId,
    note: null,
    at,
  });
  await systemLine(repo, id, 'trade.system.active_funded', at);
  const created = (await repo.byHash(hash)) as TradeRow;
  await input.attachCards?.(created);
  const event = changedEvent(created, 'started', null, userId, role);
  await parts.webhooks?.tradeChanged(tx, event);
  tx.afterCommit(() => announceStart(bus, event));
  // Nothing tells the buyer where to pay: the seller hears of it at once (payment-details.ts).
  if (lacksPaymentDetails(created)) tx.afterCommit(() => announcePaymentDetails(bus, created, 'missing'));
  return { row: created, role };
}

/**
 * Starts a trade on an offer: every rule of the offer and the start gate, then escrow. One
 * transaction from reading the offer to locking the coins: an offer edited or paused meanwhile,
 * or two starts at once against one trading limit, are seen as they are.
 */
export async function startTrade(parts: TradesParts, ctx: PersonContext, input: StartInput): Promise<TradeView> {
  const { repo, offers } = parts;
  const userId = ctx.auth.user.id;
  const { row, role } = await immediate(repo.db, async (tx) => {
    const { row: offerRow, details } = await offers.forTradeStart(ctx, {
      hash: input.offer_hash,
      locale: input.locale,
    });
    const { offer } = details;
    passStartGate(details);
    requireCardsWhereThePersonPaysWithThem(offer, input);
    payerNameOf(offer, input);
    requireSameVersion(offerRow, input.original_data);
    requireTermsAndIdentity(offer, ctx, input.gold_terms);
    const amounts = amountsAtPrice(offer, fiatAmountOf(details, input.amount_fiat), input.amount_btc);
    await withinTradingLimits(parts, userId, offerRow.ownerId, amounts.usdAmountCents);
    return insertTrade(parts, ctx, tx, { offerRow, offer, amounts, input });
  });
  return parts.view(row, userId, role);
}
