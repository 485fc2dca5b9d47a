import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { type BusEvent, createInProcessBus, type EventBus, type ListenerScope } from './bus.ts';

// The event bus across processes (issue 17), through Redis pub/sub. Two kinds of listener:
//
// - `here` (the default): consumers that act on an event once, such as the notifications
//   subscriber writing a notification row. They hear only what this process published; the
//   process that made the change is the one that acts on it, so nothing is written twice.
// - `everywhere`: consumers that pass an event on to what this process holds, such as the
//   realtime hub's sockets. They hear this process's events and every other process's, so an
//   event raised on process A reaches a socket held by process B.
//
// A channel is subscribed in Redis only while this process has an `everywhere` listener on it
// (a connected person's channels, a trade room someone has open), so each process receives the
// events of the sockets it holds, not the whole marketplace's.

export interface SharedEventBus extends EventBus {
  /** Resolves when Redis confirmed every subscription asked for so far (tests, start-up). */
  subscribed(): Promise<void>;
  listening(channel: string): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  from: string;
  event: BusEvent;
}

export interface RedisBusOptions {
  onListenerError?: (error: unknown) => void;
  /** A publish or subscribe that Redis refused or could not take (the connection is down). */
  onRedisError?: (error: unknown) => void;
  /** Channel names in Redis start with this, so several marketplaces may share one server. */
  prefix?: string;
}

export async function createRedisBus(url: string, options: RedisBusOptions = {}): Promise<SharedEventBus> {
  const { onListenerError = () => {}, onRedisError = () => {}, prefix = 'coinfair:bus:' } = options;
  const here = createInProcessBus(onListenerError);
  const everywhere = createInProcessBus(onListenerError);
  const counts = new Map<string, number>();
  /** Each subscribed channel's confirmation from Redis. */
  const confirmed = new Map<string, Promise<unknown>>();
  const self = randomUUID();
  // Once closing, events still raised (work finishing during shutdown) stay in this process.
  let closing = false;
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch(onRedisError).finally(() => pending.delete(settled));
    pending.add(settled);
  };

  const publisher = createClient({ url });
  const subscriber = publisher.duplicate();
  publisher.on('error', onRedisError);
  subscriber.on('error', onRedisError);
  await Promise.all([publisher.connect(), subscriber.connect()]);

  const onMessage = (message: string, redisChannel: string) => {
    const envelope = JSON.parse(message) as Envelope;
    // This process delivered its own event already, before sending it out.
    if (envelope.from === self) return;
    everywhere.publish(redisChannel.slice(prefix.length), envelope.event);
  };

  return {
    publish(channel, event) {
      here.publish(channel, event);
      everywhere.publish(channel, event);
      if (closing) return;
      const envelope: Envelope = { from: self, event };
      publisher.publish(prefix + channel, JSON.stringify(envelope)).catch(onRedisError);
    },
    subscribe(channel, listener, scope: ListenerScope = 'here') {
      if (scope === 'here') return here.subscribe(channel, listener);
      const remove = everywhere.subscribe(channel, listener);
      const count = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, count);
      if (count === 1) {
        const subscribing = subscriber.subscribe(prefix + channel, onMessage);
        confirmed.set(
          channel,
          subscribing.catch(() => {}),
        );
        track(subscribing);
      }
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        remove();
        const left = (counts.get(channel) ?? 1) - 1;
        if (left > 0) {
          counts.set(channel, left);
          return;
        }
        counts.delete(channel);
        confirmed.delete(channel);
        track(subscriber.unsubscribe(prefix + channel));
      };
    },
    async listening(channel) {
      await confirmed.get(channel);
    },
    async subscribed() {
      await Promise.all([...pending]);
    },
    async close() {
      closing = true;
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
