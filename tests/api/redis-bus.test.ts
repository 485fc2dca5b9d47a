import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../server/realtime/bus.ts';
import { createRedisBus, type SharedEventBus } from '../../server/realtime/redis-bus.ts';
import { redisReachable, TEST_REDIS_URL } from '../support/redis.ts';

// Two buses on one Redis stand for two server processes (issue 17): what one publishes reaches
// the other's `everywhere` listeners (sockets), never its `here` listeners (work done once).

const REDIS_URL = TEST_REDIS_URL;

const reachable = await redisReachable();
if (!reachable) console.warn('Redis is not reachable: the Redis bus tests are skipped.');

const open: SharedEventBus[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

async function twoProcesses() {
  const prefix = `coinfair-test:${randomUUID()}:`;
  const a = await createRedisBus(REDIS_URL, { prefix });
  const b = await createRedisBus(REDIS_URL, { prefix });
  open.push(a, b);
  return { a, b };
}

const event = (n: number): BusEvent => ({ type: 'trade.changed', payload: { n } });

/** Resolves once `count` events arrived, or rejects after a second with what did. */
function collect(count: number) {
  const got: BusEvent[] = [];
  let done: () => void = () => {};
  const all = new Promise<BusEvent[]>((resolve, reject) => {
    done = () => got.length >= count && resolve(got);
    setTimeout(() => reject(new Error(`got ${got.length} of ${count}: ${JSON.stringify(got)}`)), 1000);
  });
  return {
    listener: (e: BusEvent) => {
      got.push(e);
      done();
    },
    all,
    got,
  };
}

describe.skipIf(!reachable)('the event bus across processes (Redis)', () => {
  it("delivers A's event to B's socket listeners, in order", async () => {
    const { a, b } = await twoProcesses();
    const onB = collect(3);
    b.subscribe('user:1', onB.listener, 'everywhere');
    await b.subscribed();
    for (const n of [1, 2, 3]) a.publish('user:1', event(n));
    expect(await onB.all).toEqual([event(1), event(2), event(3)]);
  });

  it('says when a channel hears the other processes: what A publishes after that reaches B', async () => {
    const { a, b } = await twoProcesses();
    const onB = collect(1);
    b.subscribe('trade:y', onB.listener, 'everywhere');
    // No wait for everything pending: only this channel's confirmation (what the hub awaits
    // before telling a socket "subscribed").
    await b.listening('trade:y');
    a.publish('trade:y', event(1));
    expect(await onB.all).toEqual([event(1)]);
    // A channel nobody listens to is no reason to wait.
    await b.listening('nobody:here');
  });

  it("keeps B's once-only listeners to B's own events, and A hears its own once", async () => {
    const { a, b } = await twoProcesses();
    const onceB = collect(1);
    const socketsA = collect(1);
    const onceA = collect(1);
    b.subscribe('user:2', onceB.listener);
    a.subscribe('user:2', socketsA.listener, 'everywhere');
    a.subscribe('user:2', onceA.listener);
    await a.subscribed();
    a.publish('user:2', event(1));
    expect(await socketsA.all).toEqual([event(1)]);
    expect(await onceA.all).toEqual([event(1)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onceB.got).toEqual([]);
    expect(socketsA.got).toHaveLength(1);
    b.publish('user:2', event(2));
    expect(await onceB.all).toEqual([event(2)]);
  });

  it('stops delivering once the last listener of a channel is gone', async () => {
    const { a, b } = await twoProcesses();
    const first = collect(1);
    const second = collect(2);
    const removeFirst = b.subscribe('trade:x', first.listener, 'everywhere');
    const removeSecond = b.subscribe('trade:x', second.listener, 'everywhere');
    await b.subscribed();
    a.publish('trade:x', event(1));
    await first.all;
    removeFirst();
    a.publish('trade:x', event(2));
    expect(await second.all).toEqual([event(1), event(2)]);
    expect(first.got).toEqual([event(1)]);
    removeSecond();
    await b.subscribed();
    a.publish('trade:x', event(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.got).toHaveLength(2);
  });
});
