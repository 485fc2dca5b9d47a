import type { NotifyInput } from './notifications.ts';
import type { TradePaymentDetailsPayload } from './trade-events.ts';

// A trade's payment details (server/services/trades/payment-details.ts): a trade that started
// without them asks its seller to write them; once written or changed, the buyer hears of it, as
// they may have left the trade's page while waiting.

export async function paymentDetailsChanged(
  event: TradePaymentDetailsPayload,
  notify: (input: NotifyInput) => Promise<unknown>,
): Promise<void> {
  const { tradeHash, link } = event;
  if (event.state === 'missing') {
    await notify({
      userId: event.sellerId,
      type: 'trade_payment_details_missing',
      link,
      message: { key: 'trade_payment_details_missing', params: { username: event.buyerUsername, tradeHash } },
    });
    return;
  }
  await notify({
    userId: event.buyerId,
    type: 'trade_payment_details',
    link,
    message: { key: `trade_payment_details_${event.state}`, params: { username: event.sellerUsername, tradeHash } },
  });
}
