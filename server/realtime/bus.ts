// The in-process event bus (ARCHITECTURE.md): services publish after commit, the realtime hub and
// later notification/webhook processors subscribe. An interface, so a Redis adapter can replace it
// when the product runs on more than one process.

export interface BusEvent {
  type: string;
  payload: unknown;
}

export type BusListener = (event: BusEvent, channel: string) => void;

export interface EventBus {
  publish(channel: string, event: BusEvent): void;
  /** Returns the function that removes the listener. */
  subscribe(channel: string, listener: BusListener): () => void;
}

export function createInProcessBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const listeners = new Map<string, Set<BusListener>>();
  return {
    publish(channel, event) {
      const set = listeners.get(channel);
      if (!set) return;
      for (const listener of [...set]) {
        // One failing consumer must not stop the others or the publisher.
        try {
          listener(event, channel);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(channel, listener) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(channel);
      };
    },
  };
}
