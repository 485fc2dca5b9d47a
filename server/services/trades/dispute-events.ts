import type { EventBus } from '../../realtime/bus.ts';
import { tradeChannel } from '../../realtime/channels.ts';
import type { TradeDisputePayload } from '../notifications/trade-events.ts';
import { TRADES_CHANNEL } from './events.ts';
import type { TradeRow } from './repository.ts';

// What a dispute's clock announces once its transaction committed: the trade's page reloads the
// trade and its chat (`dispute`), and notifications hear who is to be told (`trade.dispute`).

export type DisputeNotice = Pick<TradeDisputePayload, 'kind' | 'counterpartId' | 'moderatorId' | 'staffIds'>;

export function announceDispute(bus: EventBus, row: TradeRow, notice: DisputeNotice): void {
  bus.publish(tradeChannel(row.hash), { type: 'dispute', payload: { version: row.version, kind: notice.kind } });
  const payload: TradeDisputePayload = {
    ...notice,
    tradeHash: row.hash,
    level: row.disputeLevel,
    buyerId: row.buyerId,
    sellerId: row.sellerId,
    buyerUsername: row.buyerUsername,
    sellerUsername: row.sellerUsername,
    link: `/trade/${row.hash}`,
    at: row.updatedAt,
  };
  bus.publish(TRADES_CHANNEL, { type: 'trade.dispute', payload });
}
