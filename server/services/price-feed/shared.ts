import type { EventBus } from '../../realtime/bus.ts';
import { type CryptoCode, createTickListeners, type PriceFeed, type PriceTick } from './price-feed.ts';

// One price feed for the whole deployment (issue 17). Only the jobs leader runs the source (the
// simulated walk or the ticker): `start` on becoming leader, `stop` on losing the lead. Each of its
// ticks goes over the bus to every process, the leader included, and every process's feed mirrors
// what it hears: prices, fiat rates, staleness and the tick listeners, so rates and quotes are the
// same whichever process answers. One process (SQLite, no REDIS_URL) always leads and hears its
// own ticks through the in-process bus: nothing changes for it.

/** Not a socket channel: the hub's authoriser admits no `internal:` name. */
export const PRICE_TICKS_CHANNEL = 'internal:price-ticks';

interface TickMessage {
  tick: PriceTick;
  /** The source's `updatedAt()` at the tick (a ticker's oldest price may be older than the tick). */
  updatedAt: number;
  fiatPerUsd: Record<string, number>;
}

export interface SharedPriceFeed extends PriceFeed {
  leads(): boolean;
  /** Stops the source, if running here, and stops hearing the leader's ticks. */
  close(): void;
}

export function createSharedPriceFeed({
  source,
  bus,
  onListenerError = () => {},
}: {
  source: PriceFeed;
  bus: EventBus;
  onListenerError?: (error: unknown) => void;
}): SharedPriceFeed {
  const listeners = createTickListeners(onListenerError);
  let leading = false;
  // Until a tick is heard, the source's own prices: its starting ones, or those resumed from history.
  let heard: TickMessage | undefined;

  const stopHearing = bus.subscribe(
    PRICE_TICKS_CHANNEL,
    (event) => {
      const message = event.payload as TickMessage;
      // A leader that lost its lock may tick once more while the next one starts: never go back in time.
      if (heard && message.tick.at < heard.tick.at) return;
      heard = message;
      void listeners.emit(message.tick);
    },
    'everywhere',
  );
  const stopTelling = source.onTick((tick) => {
    const message: TickMessage = { tick, updatedAt: source.updatedAt(), fiatPerUsd: source.fiatRates?.() ?? {} };
    bus.publish(PRICE_TICKS_CHANNEL, { type: 'price-tick', payload: message });
  });

  const stop = () => {
    leading = false;
    source.stop();
  };

  return {
    source: source.source,
    usdPrice: (crypto: CryptoCode) => heard?.tick.usd[crypto] ?? source.usdPrice(crypto),
    fiatPerUsd: (code) => (heard ? heard.fiatPerUsd[code] : source.fiatPerUsd(code)),
    fiatRates: () => heard?.fiatPerUsd ?? source.fiatRates?.() ?? {},
    updatedAt: () => heard?.updatedAt ?? source.updatedAt(),
    leads: () => leading,

    // The source continues from the persisted prices when this process comes to lead. What was
    // heard is kept: the history was written from those very ticks, so it is never older.
    resumeFrom: (tick) => source.resumeFrom(tick),

    onTick: listeners.add,

    start() {
      leading = true;
      source.start();
    },

    stop,

    close() {
      stop();
      stopTelling();
      stopHearing();
    },
  };
}
