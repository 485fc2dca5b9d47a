// What the kiosk and merchant endpoints answer (issue 21; docs/kiosks-and-merchants.md): the
// server builds these, the /kiosk and /wallet islands read them. Amounts are decimal text.

export type KioskCurrency = 'BTC' | 'USDT';

/** Both currencies of one of a person's balances. */
export interface BalancePair {
  BTC: string;
  USDT: string;
}

/** What a sale is, quoted or made: who gets what for which cash, at which margin. */
export interface KioskSaleTerms {
  customer: string;
  currency: KioskCurrency;
  /** What the customer receives. */
  amount: string;
  /** The escrow fee the kiosk pays on top, from its balance. */
  fee: string;
  fiatCurrency: string;
  fiatAmount: string;
  marginPercent: string;
}

/** One over-the-counter sale, as the kiosk's list and the receipt show it. */
export interface KioskSaleView extends KioskSaleTerms {
  id: string;
  transactionId: string;
  createdAt: number;
}

export interface KioskView {
  balance: BalancePair;
  /** The margin over the market price its sales are priced at, as "3.00". */
  marginPercent: string;
  /** The latest sales, newest first. */
  sales: KioskSaleView[];
}

/** What a sale would be now: shown to the operator before they confirm it. */
export interface KioskQuote extends KioskSaleTerms {
  /** One coin in the fiat currency: the market's, and the kiosk's with its margin. */
  marketPrice: string;
  price: string;
}

export interface KioskSaleResult {
  sale: KioskSaleView;
  balance: BalancePair;
  replayed: boolean;
}

export interface MerchantView {
  balance: BalancePair;
}

export interface MerchantSettlement {
  transactionId: string;
  moved: BalancePair;
  replayed: boolean;
}
