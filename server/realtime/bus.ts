// The in-process event bus (ARCHITECTURE.md): services publish after commit, the realtime hub and
// later notification/webhook processors subscribe. An interface: with REDIS_URL the Redis adapter
// (redis-bus.ts) replaces it, and events cross processes.

export interface BusEvent {
  type: string;
  payload: unknown;
}

export type BusListener = (event: BusEvent, channel: string) => void;

/**
 * `here` (the default): a consumer that acts once, hearing what this process published (the
 * notifications subscriber). `everywhere`: one that passes events on to what this process holds
 * (the realtime hub's sockets), hearing every process's events. One process: the same thing.
 */
export type ListenerScope = 'here' | 'everywhere';

export interface EventBus {
  publish(channel: string, event: BusEvent): void;
  /** Returns the function that removes the listener. */
  subscribe(channel: string, listener: BusListener, scope?: ListenerScope): () => void;
  /**
   * Resolves once an `everywhere` listener on `channel` hears other processes too (Redis has
   * confirmed the subscription). Absent on a bus that crosses no process.
   */
  listening?(channel: string): Promise<void>;
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
