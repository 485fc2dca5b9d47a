import { CRYPTO_DECIMALS } from './crypto-decimals.ts';
import { formatter } from './format.ts';

// Crypto amounts apart from format.ts: the vendor landing page ships format.ts's fiat formatting
// and nothing of this, which only the islands use.

/**
 * `0.00150000 BTC`, `12.500000 USDT`, `-0.123456 USDT`: a balance or amount from the API's decimal
 * text. One rule per currency on every screen: each coin with all the decimals its ledger keeps,
 * bitcoin 8 and tether 6, always, so amounts line up in a column and a sub-cent of tether is never
 * rounded away (docs/decisions/123-crypto-amounts-fixed-decimals.md). The text goes to Intl as a
 * string, so no float rounds it. `sign` writes `+` on amounts in (a ledger's credits).
 */
export function formatCryptoAmount(
  amount: string,
  code: 'BTC' | 'USDT',
  lang: string,
  { sign = false }: { sign?: boolean } = {},
): string {
  const decimals = CRYPTO_DECIMALS[code];
  const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  const options = sign ? { ...digits, signDisplay: 'exceptZero' as const } : digits;
  return `${formatter(lang, options).format(amount as Intl.StringNumericLiteral)} ${code}`;
}
