import type { CryptoCode } from '../price-feed/price-feed.ts';

/** What clients see (spec section 3: "The realtime quote carries expired_timestamp, service_price_ask, service_price_bid and id"). */
export interface Quote {
  /** `qt_…`, the `quote_id` of POST /rest/v1/hedging/convert. */
  id: string;
  /** Unix seconds; the quote is refused from this second on. */
  expired_timestamp: number;
  /** USDT per BTC the platform sells bitcoin at (USDT → BTC). */
  service_price_ask: number;
  /** USDT per BTC the platform buys bitcoin at (BTC → USDT). */
  service_price_bid: number;
}

export interface Conversion {
  from: CryptoCode;
  to: CryptoCode;
  /** Minor units given (satoshis or micro-USDT). */
  amountFrom: number;
  /** Minor units received, rounded down. */
  amountTo: number;
  /** The price applied: `service_price_bid` for BTC → USDT, `service_price_ask` for USDT → BTC. */
  price: number;
  quoteId: string;
}
