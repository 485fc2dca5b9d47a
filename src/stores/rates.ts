import { atom } from 'nanostores';
import { type RealtimeEvent, subscribeChannel } from '../lib/use-channel.ts';
import { onClientMount } from './client-mount.ts';

// The market price, from the public `rates` channel: US dollars per coin and when the server
// priced it. Empty until the first tick, and always empty on the server (no socket opens there),
// so an island's first render in the browser is the server's. The socket opens when the first
// island listens and closes when the last one leaves.

export interface Rates {
  /** US dollars per unit by coin code (BTC, USDT), only the positive numbers the tick held. */
  usd: Readonly<Record<string, number>>;
  /** When the server priced them, in milliseconds, when it says. */
  at: number | undefined;
}

export const $rates = atom<Rates | undefined>(undefined);

/** The prices a `rates` event carries, or undefined when it carries none. */
export function ratesOf(event: RealtimeEvent): Rates | undefined {
  if (event.type !== 'rates') return undefined;
  const payload = event.payload as { at?: unknown; usd?: Record<string, unknown> } | undefined;
  const usd: Record<string, number> = {};
  for (const [code, value] of Object.entries(payload?.usd ?? {})) {
    if (typeof value === 'number' && value > 0) usd[code] = value;
  }
  if (Object.keys(usd).length === 0) return undefined;
  return { usd, at: typeof payload?.at === 'number' ? payload.at : undefined };
}

onClientMount($rates, () =>
  subscribeChannel('rates', (event) => {
    const next = ratesOf(event);
    if (next) $rates.set(next);
  }),
);
