import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';

// The market price of a coin in a fiat currency, kept fresh while the editor is open: the value
// the page rendered with first, then GET /rest/v1/currencies/{code} at once after a change and
// every 30 s. Polling, not the realtime `rates` channel: its ticks carry USD prices only, and the
// fiat rate would still need this call (docs/decisions/045-offer-editor-and-my-offers.md, 2026-11-24).

const REFRESH_MS = 30_000;

interface CurrencyAnswer {
  code: string;
  rate: { btc: number; usdt: number };
}

export type MarketPrice = { state: 'ready'; price: number } | { state: 'loading' } | { state: 'error' };

export function useMarketPrice(code: string, crypto: 'BTC' | 'USDT', initial: number | undefined): MarketPrice {
  const key = `${code}:${crypto}`;
  // Tagged with the pair it is for: after a switch the old pair's price never shows as the new one's.
  const [market, setMarket] = useState<{ key: string; value: MarketPrice }>({
    key,
    value: initial && initial > 0 ? { state: 'ready', price: initial } : { state: 'loading' },
  });

  useEffect(() => {
    if (!code) return;
    const pair = `${code}:${crypto}`;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const result = await apiGet<CurrencyAnswer>(`/rest/v1/currencies/${encodeURIComponent(code)}`, {
        signal: abort.signal,
      });
      if (abort.signal.aborted) return;
      const price = result.data?.rate[crypto === 'USDT' ? 'usdt' : 'btc'];
      // A failed refresh keeps the last good price; only a first load without one shows the error.
      setMarket((last) => {
        if (price && price > 0) return { key: pair, value: { state: 'ready', price } };
        if (last.key === pair && last.value.state === 'ready') return last;
        return { key: pair, value: { state: 'error' } };
      });
      timer = setTimeout(load, REFRESH_MS);
    };
    void load();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [code, crypto]);

  return market.key === key ? market.value : { state: 'loading' };
}
