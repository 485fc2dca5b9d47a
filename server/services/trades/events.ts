import type { TradeActorRole, TradeStatus } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import {
  TRADES_BUS_CHANNEL,
  type TradeChangedPayload,
  type TradePaymentDetailsPayload,
} from '../notifications/trade-events.ts';
import type { TradeRow } from './repository.ts';

// What a change of a trade announces, once its transaction committed: the trade's own channel
// (its page) and the internal one (notifications).

/** The internal bus channel other services (notifications) follow; no socket may join it. */
export const TRADES_CHANNEL = TRADES_BUS_CHANNEL;
export type TradeChangeAction = TradeChangedPayload['action'];

export function changedEvent(
  row: TradeRow,
  action: TradeChangeAction,
  previousStatus: TradeStatus | null,
  actorId: number | null,
  actorRole: TradeActorRole,
): TradeChangedPayload {
  return {
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
  };
}

/** A transition: the trade's page hears the new status, notifications the whole change. */
export function announceChange(bus: EventBus, row: TradeRow, event: TradeChangedPayload): void {
  bus.publish(tradeChannel(row.hash), {
    type: row.status,
    payload: { status: row.status, version: row.version, action: event.action },
  });
  bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: event });
}

/** A start: nobody follows the new trade's page yet, so only notifications hear of it. */
export function announceStart(bus: EventBus, event: TradeChangedPayload): void {
  bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: event });
}

/**
 * The payment details: written (the trade's page reloads the trade and its chat, and the buyer is
 * told), or missing at the start (only the seller is told: nobody follows the new trade's page).
 */
export function announcePaymentDetails(bus: EventBus, row: TradeRow, state: TradePaymentDetailsPayload['state']): void {
  if (state !== 'missing') {
    bus.publish(tradeChannel(row.hash), { type: 'payment_details', payload: { version: row.version } });
  }
  const payload: TradePaymentDetailsPayload = {
    tradeHash: row.hash,
    state,
    buyerId: row.buyerId,
    sellerId: row.sellerId,
    buyerUsername: row.buyerUsername,
    sellerUsername: row.sellerUsername,
    link: `/trade/${row.hash}`,
    at: row.updatedAt,
  };
  bus.publish(TRADES_CHANNEL, { type: 'trade.payment_details', payload });
}
