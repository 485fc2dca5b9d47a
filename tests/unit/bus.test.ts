import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../server/realtime/bus.ts';

describe('in-process event bus', () => {
  it('delivers to the channel listeners only, until they unsubscribe', () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    const off = bus.subscribe('rates', (e, channel) => seen.push(`${channel}:${e.type}`));
    bus.subscribe('other', () => seen.push('other'));
    bus.publish('rates', { type: 'tick', payload: 1 });
    off();
    bus.publish('rates', { type: 'tick', payload: 2 });
    expect(seen).toEqual(['rates:tick']);
  });

  it('keeps delivering when one listener throws', () => {
    const errors: unknown[] = [];
    const bus = createInProcessBus((e) => errors.push(e));
    let delivered = 0;
    bus.subscribe('c', () => {
      throw new Error('boom');
    });
    bus.subscribe('c', () => delivered++);
    bus.publish('c', { type: 'x', payload: null });
    expect(delivered).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
