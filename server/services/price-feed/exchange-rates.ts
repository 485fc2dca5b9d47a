import * as v from 'valibot';
import type { CryptoCode } from './price-feed.ts';

// Reads an exchange-rates answer in the shape of Coinbase's public `GET /v2/exchange-rates?currency=BTC`:
// `{"data":{"currency":"BTC","rates":{"USD":"92412.55","EUR":"87190.3",…}}}`, each rate being
// units of that currency per one unit of `data.currency`.

export interface ExchangeRates {
  crypto: CryptoCode;
  /** US dollars per unit of `crypto`. */
  usd: number;
  /** Units of each quoted currency per US dollar, derived as (code per crypto) / (USD per crypto). */
  perUsd: Map<string, number>;
}

/** The answer is unusable; the message says why, for the log. */
export class ExchangeRatesError extends Error {}

const Answer = v.object({
  data: v.object({
    currency: v.string(),
    rates: v.record(v.string(), v.union([v.string(), v.number()])),
  }),
});

function positive(value: string | number | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export function parseExchangeRates(text: string, crypto: CryptoCode): ExchangeRates {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ExchangeRatesError('answered malformed JSON');
  }
  const parsed = v.safeParse(Answer, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new ExchangeRatesError(`answered an unexpected shape (${v.getDotPath(issue) ?? 'root'}: ${issue.message})`);
  }
  const { currency, rates } = parsed.output.data;
  if (currency.toUpperCase() !== crypto) throw new ExchangeRatesError(`answered rates of ${currency}, not ${crypto}`);
  const usd = positive(rates.USD);
  if (usd === undefined) throw new ExchangeRatesError('answered no usable USD rate');
  const perUsd = new Map<string, number>();
  for (const [code, value] of Object.entries(rates)) {
    const perCrypto = positive(value);
    // A missing or broken currency is skipped alone: the others are still good.
    if (perCrypto !== undefined && /^[A-Z]{3}$/.test(code)) perUsd.set(code, perCrypto / usd);
  }
  return { crypto, usd, perUsd };
}
