import { type ExchangeRates, ExchangeRatesError, parseExchangeRates } from './exchange-rates.ts';
import { type CryptoCode, cryptoCodes } from './price-feed.ts';
import { describe, type TickerState, trouble } from './ticker-state.ts';

// One poll of the ticker feed: fetch both currencies, take what is believable, tell the listeners.

async function fetchRates(ticker: TickerState, crypto: CryptoCode): Promise<ExchangeRates | undefined> {
  const { options, timeoutMs, run } = ticker;
  const url = new URL(options.url);
  url.searchParams.set('currency', crypto);
  try {
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), run.stopping.signal]);
    const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
    if (!res.ok) {
      await res.body?.cancel();
      throw new ExchangeRatesError(`answered HTTP ${res.status}`);
    }
    return parseExchangeRates(await res.text(), crypto);
  } catch (error) {
    if (!run.stopping.signal.aborted) trouble(ticker, crypto, describe(error, timeoutMs));
    return undefined;
  }
}

/** Takes the new price unless it is an unconfirmed absurd jump. */
function accept(ticker: TickerState, rates: ExchangeRates): boolean {
  const { state, maxJump, confirmPolls, options, troubles, fiatPerUsd } = ticker;
  const current = state[rates.crypto];
  if (current.confirmed && Math.abs(rates.usd / current.usd - 1) > maxJump) {
    const agrees = current.suspect && Math.abs(rates.usd / current.suspect.usd - 1) <= maxJump;
    current.suspect = { usd: rates.usd, polls: agrees && current.suspect ? current.suspect.polls + 1 : 1 };
    if (current.suspect.polls < confirmPolls) {
      const percent = Math.round(Math.abs(rates.usd / current.usd - 1) * 100);
      trouble(ticker, rates.crypto, `jumped ${percent} % to ${rates.usd} USD in one poll (ignored)`);
      return false;
    }
    options.log.info(`Price feed: ${rates.crypto} at ${rates.usd} USD for ${confirmPolls} polls in a row; adopted.`);
  }
  current.usd = rates.usd;
  current.updatedAt = ticker.now();
  current.confirmed = true;
  current.suspect = undefined;
  if (troubles.delete(rates.crypto)) options.log.info(`Price feed: ${rates.crypto} rates are good again.`);
  // Fiat rates follow the bitcoin answer (the deeper market); a currency it lacks keeps its last rate.
  if (rates.crypto === 'BTC') for (const [code, rate] of rates.perUsd) fiatPerUsd.set(code, rate);
  return true;
}

export async function pollTicker(ticker: TickerState): Promise<void> {
  const answers = await Promise.all(cryptoCodes.map((crypto) => fetchRates(ticker, crypto)));
  let moved = false;
  for (const rates of answers) if (rates && accept(ticker, rates)) moved = true;
  const { state } = ticker;
  if (moved) void ticker.listeners.emit({ at: ticker.now(), usd: { BTC: state.BTC.usd, USDT: state.USDT.usd } });
}
