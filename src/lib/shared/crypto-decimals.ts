// Its own module so that number formatting (format.ts, shipped on the vendor landing page) can
// know the coins' decimals without pulling the whole of money.ts into that page's script.

/** Minor-unit digits of the crypto currencies: satoshi (8) and micro-tether (6). */
export const CRYPTO_DECIMALS: Readonly<Record<'BTC' | 'USDT', number>> = { BTC: 8, USDT: 6 };
