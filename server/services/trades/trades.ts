import { newOfferHash } from '../../../db/ids.ts';
import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';
import { escrowFeeBasisPoints } from '../../../src/lib/shared/fees.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import type { AuthState } from '../context.ts';
import { type Actor, immediate, type ServiceContext } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import {
  TRADES_BUS_CHANNEL,
  type TradeChangedPayload,
  type TradeMessagePayload,
} from '../notifications/trade-events.ts';
import type { OffersService } from '../offers/offers.ts';
import { BLOCK_MESSAGES } from '../offers/start-gate.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import { isDisputeReason } from './dispute-reasons.ts';
import type { TradeRow, TradesRepository } from './repository.ts';
import { roleMayEver, statusesAfter, type TradeAction, transitionFor } from './state-machine.ts';
import { disputeAvailableAt, type TradeView, toTradeView } from './trade-view.ts';

// Trades (issue 6, docs/trades.md): the start, which locks the seller's coins and fee in escrow,
// and every later transition of state-machine.ts, each one SQLite transaction with its ledger
// movement, audit row and chat line; events go out after the commit.

/** The internal bus channel other services (notifications) follow; no socket may join it. */
export const TRADES_CHANNEL = TRADES_BUS_CHANNEL;
type TradeChangedEvent = TradeChangedPayload;
type TradeChangeAction = TradeChangedPayload['action'];

/** How far the client's crypto amount may drift from the current price's before it must ask again. */
export const AMOUNT_TOLERANCE = 0.01;
const EXPIRY_BATCH = 100;
const MAX_MESSAGE_LENGTH = 2000;

/** Who may not do what, in words (`errors.<key>`): the action belongs to the other side. */
const FORBIDDEN_ACTION: Record<TradeAction, [string, string]> = {
  mark_paid: ['trade_only_buyer_marks_paid', 'Only the buyer marks a trade paid.'],
  release: ['trade_only_seller_releases', 'Only the seller releases the coins.'],
  cancel: ['trade_only_parties_cancel', 'Only the buyer or the seller can cancel a trade.'],
  open_dispute: ['trade_only_parties_dispute', 'Only the buyer or the seller can open a dispute.'],
  expire: ['trade_only_parties_cancel', 'Only the buyer or the seller can cancel a trade.'],
  resolve_for_buyer: ['moderators_only', 'For moderators only.'],
  resolve_for_seller: ['moderators_only', 'For moderators only.'],
  reopen: ['moderators_only', 'For moderators only.'],
};

const CHANGE_OF: Record<TradeAction, TradeChangeAction> = {
  mark_paid: 'paid',
  release: 'released',
  cancel: 'cancelled',
  expire: 'expired',
  open_dispute: 'disputed',
  resolve_for_buyer: 'resolved',
  resolve_for_seller: 'resolved',
  reopen: 'reopened',
};

export interface StartInput {
  offer_hash: string;
  amount_btc: string;
  amount_fiat: string;
  gold_terms: 0 | 1;
  original_data: string;
  payer_name?: string | undefined;
}

export interface TradesDeps {
  repo: TradesRepository;
  offers: OffersService;
  ledger: LedgerService;
  twoFactor: TwoFactorService;
  bus: EventBus;
  now: () => number;
  /** How long after marking paid a dispute may be opened. */
  disputeWaitMs: number;
  /** Trading limits of the verification levels: throws when a trade this size would exceed one. */
  checkTradingLimit?: (userId: number, usdCents: number) => void;
}

/** Rounded half up, in integers: fiat minor units × 10^decimals / price minor units. */
function cryptoForFiat(fiatMinor: number, priceMinor: number, decimals: number): number {
  const numerator = BigInt(fiatMinor) * 10n ** BigInt(decimals) * 2n + BigInt(priceMinor);
  return Number(numerator / (2n * BigInt(priceMinor)));
}

const stateChanged = (status: TradeStatus) =>
  new AppError('TRADE_STATE_CHANGED', 'This trade has moved on; reload it to see where it stands.', {
    key: 'trade_state_changed',
    meta: { status },
  });

export function createTradesService(deps: TradesDeps) {
  const { repo, offers, ledger, twoFactor, bus, now, disputeWaitMs } = deps;

  /** One immediate transaction; ledger postings inside publish after the commit, then ours. */
  const inTransaction = <T>(actor: Actor, body: (ctx: ServiceContext) => T): T =>
    immediate(repo.db, (tx) => body({ actor, tx }));

  const roleIn = (row: TradeRow, userId: number): TradeActorRole | undefined => {
    if (userId === row.buyerId) return 'buyer';
    if (userId === row.sellerId) return 'seller';
    return repo.isModerator(userId) ? 'moderator' : undefined;
  };

  /** The trade if this person may read it: its two parties and moderators; 404 for anyone else. */
  const readable = (hash: string, userId: number) => {
    const row = repo.byHash(hash);
    const role = row ? roleIn(row, userId) : undefined;
    if (!row || !role) throw notFound('Trade', 'id');
    return { row, role };
  };

  const view = (row: TradeRow, readerId: number, role: TradeActorRole): TradeView => {
    const opponentId = readerId === row.buyerId ? row.sellerId : row.buyerId;
    const readerIp = readerId === row.responderId ? row.responderIp : repo.latestIp(readerId);
    const opponentIp = opponentId === row.responderId ? row.responderIp : repo.latestIp(opponentId);
    return toTradeView(row, repo.requirementsOf(row.id), {
      readerId,
      role,
      now: now(),
      disputeWaitMs,
      sameIp: role !== 'moderator' && readerIp !== null && readerIp === opponentIp,
      releaseNeedsCode: role === 'seller' && twoFactor.purposes(row.sellerId).release,
      disputeOpenedBy:
        row.disputeOpenedBy === null
          ? null
          : row.disputeOpenedBy === row.buyerId
            ? row.buyerUsername
            : row.sellerUsername,
    });
  };

  const changedEvent = (
    row: TradeRow,
    action: TradeChangeAction,
    previousStatus: TradeStatus | null,
    actorId: number | null,
    actorRole: TradeActorRole,
  ): TradeChangedEvent => ({
    tradeHash: row.hash,
    action,
    status: row.status,
    previousStatus,
    actorId,
    actorRole,
    buyerId: row.buyerId,
    sellerId: row.sellerId,
    ownerId: row.ownerId,
    responderId: row.responderId,
    buyerUsername: row.buyerUsername,
    sellerUsername: row.sellerUsername,
    link: `/trade/${row.hash}`,
    fiatAmount: fromMinorUnits(row.fiatAmountMinor, row.fiatMinorUnits),
    currency: row.fiatCode,
    cryptoAmount: fromMinorUnits(row.cryptoAmount, CRYPTO_DECIMALS[row.cryptoCode]),
    cryptoCurrency: row.cryptoCode,
    at: row.updatedAt,
  });

  /** After the commit: the trade's own channel (its page) and the internal one (notifications). */
  const announce = (row: TradeRow, event: TradeChangedEvent) => {
    bus.publish(tradeChannel(row.hash), {
      type: row.status,
      payload: { status: row.status, version: row.version, action: event.action },
    });
    bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: event });
  };

  /** A status line in the chat, stored as a message key the page renders in its reader's language. */
  const systemLine = (tradeId: number, key: string, at: number) =>
    repo.insertMessage({
      tradeId,
      authorId: null,
      authorRole: 'system',
      body: key,
      attachmentId: null,
      isForModerator: 0,
      at,
    });

  const startBlocked = (code: keyof typeof BLOCK_MESSAGES, params?: Record<string, string | number>) =>
    new AppError('FORBIDDEN', BLOCK_MESSAGES[code], {
      key: `start_block_${code}`,
      ...(params ? { params } : {}),
    });

  /**
   * Applies `action` by `actorId` (null: the system) in one transaction: the guarded status
   * update, the escrow move, the audit row and a chat line. A repeat of the same action that already
   * took effect answers the trade as it is (a double click), anything else from a status that no
   * longer allows it is TRADE_STATE_CHANGED.
   */
  const transition = (
    hash: string,
    action: TradeAction,
    actor: { id: number | null; role: TradeActorRole },
    details: { disputeReasonId?: string; disputeText?: string; note?: string } = {},
  ): TradeRow => {
    let event: TradeChangedEvent | undefined;
    const ledgerActor: Actor =
      actor.id === null ? { type: 'system', name: 'trades' } : { type: 'user', userId: actor.id };
    const result = inTransaction(ledgerActor, (ctx) => {
      const row = repo.byHash(hash);
      if (!row) throw notFound('Trade', 'id');
      const rule = transitionFor(action, row.status, actor.role);
      if (!rule) {
        if (statusesAfter(action, actor.role).includes(row.status)) return row;
        throw stateChanged(row.status);
      }
      const at = Math.max(now(), row.updatedAt);
      let escrowRef = row.escrowRef;
      let ledgerTx: string | null = null;
      const memo = `trade ${row.hash}: ${action}`;
      if (rule.escrow === 'release_to_buyer') {
        ledgerTx = ledger.releaseEscrow({
          ctx,
          input: {
            tradeRef: escrowRef,
            currency: row.cryptoCode,
            buyerId: row.buyerId,
            fee: row.feeAmount,
            idempotencyKey: `trade:${escrowRef}:release`,
            memo,
          },
        }).id;
      } else if (rule.escrow === 'return_to_seller') {
        ledgerTx = ledger.returnEscrow({
          ctx,
          input: { tradeRef: escrowRef, currency: row.cryptoCode, idempotencyKey: `trade:${escrowRef}:return`, memo },
        }).id;
      } else if (rule.escrow === 'lock_again') {
        // A resolved escrow stays resolved: the reopened trade gets a fresh one.
        const round = (escrowRef.match(/-r(\d+)$/)?.[1] ?? '0') as string;
        escrowRef = `${row.hash}-r${Number(round) + 1}`;
        ledgerTx = ledger.lockEscrow({
          ctx,
          input: {
            tradeRef: escrowRef,
            sellerId: row.sellerId,
            currency: row.cryptoCode,
            amount: row.cryptoAmount + row.feeAmount,
            idempotencyKey: `trade:${escrowRef}:lock`,
            memo,
          },
        }).id;
      }
      const ends = rule.to !== 'paid' && rule.to !== 'dispute_open';
      const changed = repo.changeStatus({
        id: row.id,
        from: row.status,
        to: rule.to,
        at,
        paidAt: action === 'mark_paid' ? at : row.paidAt,
        endedAt: ends ? at : null,
        disputedAt: rule.to === 'dispute_open' ? at : row.disputedAt,
        disputeReasonId: action === 'open_dispute' ? (details.disputeReasonId ?? null) : row.disputeReasonId,
        disputeText: action === 'open_dispute' ? (details.disputeText ?? null) : row.disputeText,
        disputeOpenedBy: action === 'open_dispute' ? actor.id : row.disputeOpenedBy,
        resolvedBy: actor.role === 'moderator' ? actor.id : row.resolvedBy,
        escrowRef,
      });
      // Cannot happen inside an immediate transaction that just read the row; kept as the guard.
      if (!changed) throw stateChanged(row.status);
      if (rule.to === 'released' || rule.to === 'dispute_won_buyer') repo.countCompleted(row.buyerId, row.sellerId);
      repo.insertTransition({
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
      systemLine(row.id, `trade.system.${rule.to}`, at);
      const updated = repo.byHash(hash) as TradeRow;
      event = changedEvent(updated, CHANGE_OF[action], row.status, actor.id, actor.role);
      return updated;
    });
    if (event) announce(result, event);
    return result;
  };

  /**
   * Cancels unpaid trades past their window, a batch at a time. The table is the job's memory: a
   * restart finds the same rows, and a trade paid a moment before simply no longer matches.
   */
  const expireDue = (): number => {
    let expired = 0;
    for (const hash of repo.dueForExpiry(now(), EXPIRY_BATCH)) {
      try {
        const row = transition(hash, 'expire', { id: null, role: 'system' });
        if (row.status === 'cancelled_system') expired += 1;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'TRADE_STATE_CHANGED')) throw error;
      }
    }
    return expired;
  };

  /** A party's action: 404 for strangers, 403 when this side never may, then the transition. */
  const act = (
    auth: AuthState,
    hash: string,
    action: TradeAction,
    details: { disputeReasonId?: string; disputeText?: string } = {},
    before?: (row: TradeRow, role: TradeActorRole) => void,
  ): TradeView => {
    const { row, role } = readable(hash, auth.user.id);
    const partyRole =
      role === 'moderator' && (action === 'resolve_for_buyer' || action === 'resolve_for_seller' || action === 'reopen')
        ? 'moderator'
        : role;
    if (!roleMayEver(action, partyRole)) {
      const [key, message] = FORBIDDEN_ACTION[action];
      throw new AppError('FORBIDDEN', message, { key });
    }
    before?.(row, partyRole);
    const updated = transition(hash, action, { id: auth.user.id, role: partyRole }, details);
    return view(updated, auth.user.id, role);
  };

  return {
    /** Starts a trade on an offer: every rule of the offer and the start gate, then escrow. */
    start({ auth, input, locale, ip }: { auth: AuthState; input: StartInput; locale: Locale; ip: string | null }) {
      const { row: offerRow, details } = offers.forTradeStart({ hash: input.offer_hash, auth, locale });
      const { offer, blocks, limits } = details;
      const first = blocks[0];
      if (first) throw startBlocked(first.code, first.params);
      if (offer.isGiftCard) {
        throw new AppError('FORBIDDEN', 'Gift-card trades start from the gift-card page, which is not open yet.', {
          key: 'trade_gift_cards_unavailable',
        });
      }
      // The offer changed since the page was read (terms, limits, price type): the client reloads.
      let seen: { v?: unknown };
      try {
        seen = JSON.parse(input.original_data) as { v?: unknown };
      } catch {
        throw invalidInput([{ field: 'original_data', message: 'must be the originalData of the offer' }]);
      }
      if (typeof seen !== 'object' || seen === null || seen.v !== offerRow.updatedAt) {
        throw new AppError('OFFER_CHANGED', 'The vendor changed this offer. Reload the page to see it as it is now.', {
          key: 'trade_offer_changed',
          meta: { action: 'reload' },
        });
      }
      if (offer.isGold && input.gold_terms !== 1) {
        throw invalidInput([
          { field: 'gold_terms', message: 'Accept the payment terms to start.', key: 'trade_gold_terms_required' },
        ]);
      }
      const personSells = offer.type === 'buy';
      if (personSells && offer.requireVerifiedId && auth.user.idVerifiedAt === null) {
        throw new AppError('FORBIDDEN', 'This vendor only buys from people with a verified identity.', {
          key: 'trade_id_verification_required',
        });
      }

      const fiatDecimals = offer.fiatDecimals;
      const fiatMinor = toMinorUnits(input.amount_fiat, fiatDecimals);
      if (fiatMinor === undefined || fiatMinor <= 0) {
        throw invalidInput([
          { field: 'amount_fiat', message: 'must be an amount above 0', key: 'trade_amount_invalid' },
        ]);
      }
      const toMinor = (major: number) => Math.round(major * 10 ** fiatDecimals);
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
      const crypto = offer.cryptoCurrency as 'BTC' | 'USDT';
      const cryptoDecimals = CRYPTO_DECIMALS[crypto];
      const priceMinor = toMinor(offer.fiatPricePerCrypto);
      if (priceMinor <= 0)
        throw new AppError('RATE_UNAVAILABLE', 'There is no market price right now. Try again soon.');
      const cryptoAmount = cryptoForFiat(fiatMinor, priceMinor, cryptoDecimals);
      const claimed = toMinorUnits(input.amount_btc, cryptoDecimals);
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

      const feeBasisPoints = escrowFeeBasisPoints(offer.paymentGroup);
      const feeAmount = Math.ceil((cryptoAmount * feeBasisPoints) / 10_000);
      const ownerSells = offerRow.type === 'sell';
      const buyerId = ownerSells ? auth.user.id : offerRow.ownerId;
      const sellerId = ownerSells ? offerRow.ownerId : auth.user.id;
      const at = now();
      const hash = newOfferHash();
      let event: TradeChangedEvent | undefined;
      const row = inTransaction({ type: 'user', userId: auth.user.id }, (ctx) => {
        // Inside the transaction: two starts at once cannot both fit into what a limit has left.
        deps.checkTradingLimit?.(auth.user.id, usdAmountCents);
        try {
          deps.checkTradingLimit?.(offerRow.ownerId, usdAmountCents);
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
        const id = repo.insertTrade({
          hash,
          offerId: offerRow.id,
          offerType: offerRow.type,
          ownerId: offerRow.ownerId,
          responderId: auth.user.id,
          buyerId,
          sellerId,
          cryptoCode: crypto,
          cryptoAmount,
          feeAmount,
          feeBasisPoints,
          escrowRef: hash,
          fiatCurrencyId: offerRow.fiatCurrencyId,
          fiatAmountMinor: fiatMinor,
          priceMinor,
          usdAmountCents,
          paymentMethodId: offerRow.paymentMethodId,
          paymentWindowMinutes: offerRow.paymentWindowMinutes,
          offerTerms: offerRow.terms,
          paymentDetails: offerRow.tradeInstructions,
          tags: offerRow.tags,
          payerName: input.payer_name?.trim() || null,
          startedAt: at,
          expiresAt: at + offerRow.paymentWindowMinutes * 60_000,
          responderIp: ip,
        });
        for (const requirement of offer.tradeRequirements) {
          repo.insertRequirement({ tradeId: id, ...requirement, optional: requirement.optional ? 1 : 0, at });
        }
        let ledgerTx: string;
        try {
          ledgerTx = ledger.lockEscrow({
            ctx,
            input: {
              tradeRef: hash,
              sellerId,
              currency: crypto,
              amount: cryptoAmount + feeAmount,
              idempotencyKey: `trade:${hash}:lock`,
              memo: `trade ${hash}: start`,
            },
          }).id;
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') {
            const total = fromMinorUnits(cryptoAmount + feeAmount, cryptoDecimals);
            throw sellerId === auth.user.id
              ? new AppError(
                  'INSUFFICIENT_FUNDS',
                  `Your ${crypto} balance does not cover ${total} ${crypto} with the fee.`,
                  {
                    field: 'amount_fiat',
                    key: 'trade_insufficient_own_balance',
                    params: { amount: total, currency: crypto },
                  },
                )
              : new AppError(
                  'INSUFFICIENT_FUNDS',
                  "The vendor's balance cannot cover this amount right now. Try a smaller one.",
                  {
                    field: 'amount_fiat',
                    key: 'trade_insufficient_vendor_balance',
                  },
                );
          }
          throw error;
        }
        repo.insertTransition({
          tradeId: id,
          action: 'start',
          fromStatus: null,
          toStatus: 'active_funded',
          actorId: auth.user.id,
          actorRole: auth.user.id === buyerId ? 'buyer' : 'seller',
          ledgerTransactionId: ledgerTx,
          note: null,
          at,
        });
        systemLine(id, 'trade.system.active_funded', at);
        const created = repo.byHash(hash) as TradeRow;
        event = changedEvent(created, 'started', null, auth.user.id, auth.user.id === buyerId ? 'buyer' : 'seller');
        return created;
      });
      if (event) bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: event });
      return view(row, auth.user.id, auth.user.id === buyerId ? 'buyer' : 'seller');
    },

    get({ auth, hash }: { auth: AuthState; hash: string }): TradeView {
      const { row, role } = readable(hash, auth.user.id);
      return view(row, auth.user.id, role);
    },

    /** The reader's running trades; `alarmed` are those waiting on them (spec: meta.alarmedTrades). */
    active({ auth }: { auth: AuthState }) {
      const userId = auth.user.id;
      const trades = repo.activeOf(userId).map((row) => view(row, userId, row.buyerId === userId ? 'buyer' : 'seller'));
      const at = now();
      const alarmed = trades.filter(
        (t) =>
          t.status === 'dispute_open' ||
          (t.role === 'seller' && t.status === 'paid') ||
          (t.role === 'buyer' && t.status === 'active_funded' && t.expiresAt * 1000 - at < 5 * 60_000),
      );
      return { trades, alarmedTrades: alarmed.map((t) => t.hash) };
    },

    markPaid: ({ auth, hash }: { auth: AuthState; hash: string }) =>
      act(auth, hash, 'mark_paid', {}, (row) => {
        const pending = repo.requirementsOf(row.id).some((r) => r.optional === 0 && r.status !== 'uploaded');
        if (pending && row.status === 'active_funded') {
          throw new AppError('FORBIDDEN', 'Upload the proofs this trade asks for before marking it paid.', {
            key: 'trade_requirements_pending',
          });
        }
      }),

    release: ({ auth, hash, code }: { auth: AuthState; hash: string; code?: string | undefined }) =>
      act(auth, hash, 'release', {}, (row, role) => {
        if (role !== 'seller' || transitionFor('release', row.status, role) === undefined) return;
        const check = twoFactor.verify(auth.user.id, 'release', code);
        if (check === 'failed') {
          throw code?.trim()
            ? new AppError('RELEASE_CODE_INVALID', 'This code is not correct.', {
                field: 'code',
                key: 'two_factor_invalid',
              })
            : new AppError('RELEASE_CODE_REQUIRED', 'Enter the code from your authenticator app to release.', {
                field: 'code',
                key: 'trade_release_code_required',
              });
        }
      }),

    cancel: ({ auth, hash }: { auth: AuthState; hash: string }) => act(auth, hash, 'cancel'),

    openDispute({
      auth,
      hash,
      reasonId,
      text,
    }: {
      auth: AuthState;
      hash: string;
      reasonId: string;
      text: string;
    }): TradeView {
      return act(auth, hash, 'open_dispute', { disputeReasonId: reasonId, disputeText: text }, (row, role) => {
        if (!isDisputeReason(reasonId, role)) {
          throw invalidInput([
            { field: 'dispute_reason_id', message: 'Choose one of the listed reasons.', key: 'trade_dispute_reason' },
          ]);
        }
        const availableAt = disputeAvailableAt(row, disputeWaitMs);
        if (row.status === 'paid' && availableAt !== null && now() < availableAt) {
          throw new AppError('FORBIDDEN', 'A dispute can be opened a little later; the time is shown on the page.', {
            key: 'trade_dispute_not_yet',
            meta: { availableAt: Math.floor(availableAt / 1000) },
          });
        }
      });
    },

    resolve({ auth, hash, winner }: { auth: AuthState; hash: string; winner: 'buyer' | 'seller' }) {
      if (!repo.isModerator(auth.user.id)) throw notFound('Trade', 'id');
      return act(auth, hash, winner === 'buyer' ? 'resolve_for_buyer' : 'resolve_for_seller');
    },

    reopen({ auth, hash }: { auth: AuthState; hash: string }) {
      if (!repo.isModerator(auth.user.id)) throw notFound('Trade', 'id');
      return act(auth, hash, 'reopen');
    },

    /** Open disputes, oldest first: the moderators' queue. */
    disputes({ auth, page }: { auth: AuthState; page: number }) {
      if (!repo.isModerator(auth.user.id))
        throw new AppError('FORBIDDEN', 'For moderators only.', { key: 'moderators_only' });
      const size = 50;
      const rows = repo.openDisputes(size + 1, (page - 1) * size);
      return {
        trades: rows.slice(0, size).map((row) => view(row, auth.user.id, 'moderator')),
        hasMore: rows.length > size,
      };
    },

    expireDue,

    /** Runs expireDue every `intervalMs`; returns the stop function. */
    startExpiryJob(intervalMs: number, onError: (error: unknown) => void): () => void {
      const tick = () => {
        try {
          // A backlog (after downtime) drains in batches without waiting a tick each.
          while (expireDue() === EXPIRY_BATCH);
        } catch (error) {
          onError(error);
        }
      };
      tick();
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },

    /** May this user follow `trade:<hash>` on the realtime hub: its parties and moderators. */
    canFollow(hash: string, userId: number): boolean {
      const parties = repo.partiesOf(hash);
      if (!parties) return false;
      return parties.buyerId === userId || parties.sellerId === userId || repo.isModerator(userId);
    },

    // ——— chat ———

    messages({ auth, hash, after = 0 }: { auth: AuthState; hash: string; after?: number }) {
      const { row, role } = readable(hash, auth.user.id);
      return repo.messagesOf(row.id, after, role === 'moderator', 500).map(messageView);
    },

    postMessage({
      auth,
      hash,
      text,
      isForModerator = false,
    }: {
      auth: AuthState;
      hash: string;
      text: string;
      isForModerator?: boolean;
    }) {
      const { row, role } = readable(hash, auth.user.id);
      const body = text.trim();
      if (body.length === 0 || body.length > MAX_MESSAGE_LENGTH) {
        throw invalidInput([
          {
            field: 'text',
            message: `Write 1 to ${MAX_MESSAGE_LENGTH} characters.`,
            key: 'trade_message_length',
            params: { max: MAX_MESSAGE_LENGTH },
          },
        ]);
      }
      const at = now();
      const id = repo.insertMessage({
        tradeId: row.id,
        authorId: auth.user.id,
        authorRole: role,
        body,
        attachmentId: null,
        isForModerator: isForModerator ? 1 : 0,
        at,
      });
      const message = messageView(repo.messageById(id) as NonNullable<ReturnType<typeof repo.messageById>>);
      publishMessage(row, message, auth.user.id, role, false, isForModerator);
      return message;
    },

    // ——— hooks for the uploads service (uploads.ts) ———

    /** The trade and the reader's role in it; 404 for anyone who may not read it. */
    access: ({ auth, hash }: { auth: AuthState; hash: string }) => readable(hash, auth.user.id),

    /** Publishes a chat line another service stored (an attachment) as postMessage does its own. */
    publishStored(
      row: TradeRow,
      messageId: number,
      author: { id: number; role: TradeActorRole },
      isForModerator: boolean,
    ) {
      const message = messageView(repo.messageById(messageId) as NonNullable<ReturnType<typeof repo.messageById>>);
      publishMessage(row, message, author.id, author.role, true, isForModerator);
      return message;
    },
  };

  function publishMessage(
    row: TradeRow,
    message: TradeMessageView,
    authorId: number,
    authorRole: TradeActorRole,
    hasAttachment: boolean,
    isForModerator: boolean,
  ) {
    // Moderator-only lines stay off the parties' channel; moderators read them through the API.
    if (!isForModerator) bus.publish(tradeChannel(row.hash), { type: 'message', payload: message });
    const recipientIds = [row.buyerId, row.sellerId].filter((id) => id !== authorId);
    bus.publish(TRADES_CHANNEL, {
      type: 'trade.message',
      payload: {
        tradeHash: row.hash,
        messageId: message.id,
        authorId,
        authorRole,
        recipientIds: isForModerator ? [] : recipientIds,
        hasAttachment,
        isForModerator,
        link: `/trade/${row.hash}`,
        at: message.createdAt * 1000,
      } satisfies TradeMessagePayload,
    });
  }
}

export interface TradeMessageView {
  id: number;
  author: string | null;
  role: TradeActorRole;
  /** Plain text (a `trade.system.*` key for system lines); never HTML. */
  text: string;
  isSystem: boolean;
  attachment: { id: string; url: string; contentType: string } | null;
  isForModerator: boolean;
  /** Unix seconds. */
  createdAt: number;
}

function messageView(row: NonNullable<ReturnType<TradesRepository['messageById']>>): TradeMessageView {
  return {
    id: row.id,
    author: row.authorUsername,
    role: row.authorRole,
    text: row.body,
    isSystem: row.authorRole === 'system',
    attachment:
      row.attachmentPublicId === null
        ? null
        : {
            id: row.attachmentPublicId,
            url: `/uploads/trades/${row.attachmentPublicId}`,
            contentType: row.attachmentContentType ?? 'application/octet-stream',
          },
    isForModerator: row.isForModerator === 1,
    createdAt: Math.floor(row.createdAt / 1000),
  };
}

export type TradesService = ReturnType<typeof createTradesService>;
