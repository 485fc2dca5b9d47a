import { describe, expect, it } from 'vitest';
import { countingFailures, failureKind } from '../../server/observability/backend-observer.ts';
import { createMetrics } from '../../server/observability/metrics.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { TRADES_CHANNEL } from '../../server/services/trades/events.ts';

// The counters' sources (issue 25): trades by change as the bus carries them, events published,
// background failures by kind, and the scrape-time probes, which leave a value out when they fail.

const sample = async (metrics: ReturnType<typeof createMetrics>, name: string) =>
  (await metrics.registry.getSingleMetric(name)?.get())?.values ?? [];

describe('metrics', () => {
  it('counts trades by change and events by type from the bus', async () => {
    const metrics = createMetrics();
    const bus = createInProcessBus();
    const unwatch = metrics.watchBus(bus);
    for (const action of ['started', 'paid', 'released', 'started'])
      bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: { action } });
    bus.publish('wallet:usr_a', { type: 'wallet', payload: null });
    const trades = await sample(metrics, 'coinfair_trades_total');
    expect(trades.map(({ labels, value }) => [labels.action, value]).sort()).toEqual([
      ['paid', 1],
      ['released', 1],
      ['started', 2],
    ]);
    const published = await sample(metrics, 'coinfair_events_published_total');
    expect(published.find(({ labels }) => labels.type === 'trade.changed')?.value).toBe(4);
    expect(published.find(({ labels }) => labels.type === 'wallet')?.value).toBe(1);
    unwatch();
    bus.publish(TRADES_CHANNEL, { type: 'trade.changed', payload: { action: 'started' } });
    expect(
      (await sample(metrics, 'coinfair_trades_total')).find(({ labels }) => labels.action === 'started')?.value,
    ).toBe(2);
  });

  it('counts logged failures by kind, never by their details', async () => {
    expect(failureKind('Price feed: BTC rates stale; keeping 1 USD of 2.')).toBe('Price feed');
    expect(failureKind('trade expiry failed')).toBe('trade expiry failed');
    const metrics = createMetrics();
    const seen: string[] = [];
    const log = countingFailures({ info: () => {}, error: (message) => seen.push(message) }, metrics);
    log.error('Price feed: ETH rates missing', new Error('x'));
    log.error('Price feed: BTC rates stale');
    expect(seen).toHaveLength(2);
    const failures = await sample(metrics, 'coinfair_background_failures_total');
    expect(failures).toEqual([expect.objectContaining({ labels: { what: 'Price feed' }, value: 2 })]);
  });

  it('reads the probes at the scrape, and leaves out one that fails', async () => {
    const metrics = createMetrics();
    metrics.probe({
      sockets: () => 3,
      leads: () => true,
      databaseLatency: async () => 0.002,
      redisLatency: () => Promise.reject(new Error('down')),
      sendoutsWaiting: async () => ({ count: 2, oldestSeconds: 90 }),
      ledgerVerification: () => ({ at: 1_790_000_000, ok: false }),
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('coinfair_realtime_sockets 3');
    expect(text).toContain('coinfair_jobs_leader 1');
    expect(text).toContain('coinfair_database_latency_seconds 0.002');
    expect(text).toMatch(/^coinfair_redis_latency_seconds nan$/im);
    expect(text).toContain('coinfair_sendouts_waiting 2');
    expect(text).toContain('coinfair_sendouts_oldest_waiting_seconds 90');
    expect(text).toContain('coinfair_ledger_verified 0');
  });
});
