import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { GIFT_CARDS_GROUP } from '../trades/deps.ts';
import type { TradeRow } from '../trades/repository.ts';
import type { TradeView } from '../trades/trade-view.ts';
import { attachCards } from './attach.ts';
import type { GiftCardsDeps } from './deps.ts';
import { systemLine } from './trade-cards.ts';

// POST /rest/v1/gift-cards/trade/start (spec section 7): a trade on a gift-card offer whose vendor
// sells, paid with the buyer's saved cards. Every check of any trade start (the trades service's
// eight steps, the price tolerance's fiat_and_btc_amount_mismatch included), then the cards,
// which must add up to the amount exactly, all in the start's one transaction.

export interface GiftTradeStartInput {
  offer_hash: string;
  fiat_currency_id: number;
  payment_method_id: number;
  amount_fiat: string;
  amount_btc: string;
  gift_card_ids: string[];
  original_data: string;
  payer_name?: string | undefined;
  locale: Locale;
  ip: string | null;
}

export interface GiftTradeStarted {
  message: string;
  chatUrl: string;
  data: TradeView;
}

/** The offer's brand and currency, as the client named them: a stale page is told so. */
function requireOffersProduct(trade: TradeRow, input: GiftTradeStartInput): void {
  const issues = [];
  if (trade.paymentMethodId !== input.payment_method_id) {
    issues.push({ field: 'payment_method_id', message: "must be the offer's gift card", key: 'gift_card_offer_brand' });
  }
  if (trade.fiatCurrencyId !== input.fiat_currency_id) {
    issues.push({
      field: 'fiat_currency_id',
      message: "must be the offer's currency",
      key: 'gift_card_offer_currency',
    });
  }
  if (issues.length > 0) throw invalidInput(issues);
}

export async function startGiftTrade(
  deps: GiftCardsDeps,
  ctx: PersonContext,
  input: GiftTradeStartInput,
): Promise<GiftTradeStarted> {
  const { trades, now } = deps;
  const view = await trades.start(ctx, {
    offer_hash: input.offer_hash,
    amount_btc: input.amount_btc,
    amount_fiat: input.amount_fiat,
    gold_terms: 0,
    original_data: input.original_data,
    payer_name: input.payer_name,
    locale: input.locale,
    ip: input.ip,
    attachCards: async (trade) => {
      if (trade.paymentGroupSlug !== GIFT_CARDS_GROUP) {
        throw new AppError('FORBIDDEN', 'This offer is not paid with gift cards.', { key: 'gift_cards_not_for_offer' });
      }
      if (trade.buyerId !== ctx.auth.user.id) {
        throw new AppError('FORBIDDEN', 'On this offer the vendor pays with gift cards: start it as any other trade.', {
          key: 'gift_cards_vendor_pays',
        });
      }
      requireOffersProduct(trade, input);
      await attachCards(deps, trade, input.gift_card_ids, { exactly: true, at: trade.startedAt });
      await systemLine(deps, trade, 'trade.system.gift_cards_attached', Math.max(now(), trade.startedAt));
    },
  });
  return {
    message: 'The trade started: the seller checks your gift cards once you mark it paid.',
    chatUrl: `/trade/${view.hash}`,
    data: view,
  };
}
