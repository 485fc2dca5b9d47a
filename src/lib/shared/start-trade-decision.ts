// What happens when a person submits the start-trade form of an offer (spec section 4, "Start-trade
// decision order on submit"): the first matching step wins; confirming its modal starts the trade.
//
// The spec's "sell offer" and "buy offer" name the person's side, as the listing pages do: on
// /sell-bitcoin a person sells to an offer whose owner buys (`offer.type === 'buy'`). So the OFAC
// and chargeback warnings guard people who sell, the sell-offer warning people who buy.

export type StartTradeStep =
  | 'choose_gift_cards'
  | 'payment_terms_warning'
  | 'ofac_warning'
  | 'sell_offer_warning'
  | 'chargeback_warning'
  | 'start';

export interface StartTradeOffer {
  type: 'buy' | 'sell';
  isGiftCard: boolean;
  isGold: boolean;
  requireVerifiedId: boolean;
  isSkipWarnings: boolean;
  isChargebackRisky: boolean;
}

export function startTradeStep(offer: StartTradeOffer, viewer: { isIdVerified: boolean }): StartTradeStep {
  const personSells = offer.type === 'buy';
  // Cards are how a buyer pays: where the vendor buys, the vendor brings them into the trade.
  if (offer.isGiftCard && !personSells) return 'choose_gift_cards';
  if (offer.isGold) return 'payment_terms_warning';
  if (personSells && offer.requireVerifiedId && !viewer.isIdVerified) return 'ofac_warning';
  if (!personSells && !offer.isSkipWarnings) return 'sell_offer_warning';
  if (offer.isChargebackRisky && personSells) return 'chargeback_warning';
  return 'start';
}
