import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import { systemContext } from '../../server/services/context.ts';
import { createPriceFeed } from '../../server/services/price-feed/create.ts';
import type { PriceTick } from '../../server/services/price-feed/price-feed.ts';
import { createTickerPriceFeed, type TickerFeedOptions } from '../../server/services/price-feed/ticker.ts';
import { createReferenceService } from '../../server/services/reference/reference.ts';
import { createReferenceRepository } from '../../server/services/reference/repository.ts';
import { createTestDb } from '../support/test-db.ts';

// The ticker feed against a real HTTP server on 127.0.0.1 that answers like Coinbase's public
// `GET /v2/exchange-rates?currency=…`, from the answers in tests/fixtures/ticker/.

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'ticker');

interface Reply {
  file: string;
  status?: number;
  /** Answer this late (past the feed's timeout). */
  delayMs?: number;
}

const defaultReplies = (): Record<string, Reply> => ({ BTC: { file: 'btc.json' }, USDT: { file: 'usdt.json' } });
let replies = defaultReplies();
const requests: string[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const requested = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${requested.pathname}${requested.search}`);
    const reply = replies[requested.searchParams.get('currency') ?? ''] ?? {
      file: 'invalid-currency.json',
      status: 400,
    };
    const send = () => {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(readFileSync(join(FIXTURES, reply.file)));
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/exchange-rates`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  replies = defaultReplies();
  requests.length = 0;
});

const clock = { now: Date.UTC(2026, 10, 24, 12) };

function tickerFeed(options: Partial<TickerFeedOptions> = {}) {
  const logs: string[] = [];
  const ticks: PriceTick[] = [];
  const feed = createTickerPriceFeed({
    url,
    pollSeconds: 60,
    // Generous, so a loaded CI machine never turns a prompt local answer into a timeout; the
    // timeout test sets its own short one.
    timeoutMs: 5_000,
    initial: { BTC: 90_000, USDT: 1 },
    now: () => clock.now,
    log: { info: (m) => logs.push(`info: ${m}`), error: (m) => logs.push(`error: ${m}`) },
    ...options,
  });
  feed.onTick((tick) => ticks.push(tick));
  return { feed, logs, ticks };
}

describe('ticker price feed', () => {
  it('asks for BTC and USDT and takes their USD prices and the fiat rates of the bitcoin answer', async () => {
    const { feed, ticks, logs } = tickerFeed();
    expect(feed.source).toBe('ticker');
    expect(feed.usdPrice('BTC')).toBe(90_000);
    clock.now += 1_000;
    await feed.poll();
    expect(requests.sort()).toEqual(['/v2/exchange-rates?currency=BTC', '/v2/exchange-rates?currency=USDT']);
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    expect(feed.usdPrice('USDT')).toBe(1.0002);
    expect(feed.fiatPerUsd('EUR')).toBeCloseTo(87_191.24 / 92_412.55, 12);
    expect(feed.fiatPerUsd('USD')).toBe(1);
    expect(feed.fiatPerUsd('SEK')).toBeUndefined();
    expect(feed.updatedAt()).toBe(clock.now);
    expect(ticks).toEqual([{ at: clock.now, usd: { BTC: 92_412.55, USDT: 1.0002 } }]);
    expect(logs).toEqual([]);
  });

  it('keeps the last good prices on an HTTP error and logs an outage once, then its end', async () => {
    const { feed, ticks, logs } = tickerFeed();
    await feed.poll();
    const goodAt = feed.updatedAt();
    replies.BTC = { file: 'invalid-currency.json', status: 503 };
    replies.USDT = { file: 'invalid-currency.json', status: 503 };
    clock.now += 60_000;
    await feed.poll();
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    expect(feed.updatedAt()).toBe(goodAt);
    expect(ticks).toHaveLength(1);
    expect(logs).toEqual([
      expect.stringMatching(/^error: Price feed: BTC rates answered HTTP 503; keeping 92412\.55 USD of /),
      expect.stringMatching(/^error: Price feed: USDT rates answered HTTP 503/),
    ]);
    replies = defaultReplies();
    await feed.poll();
    expect(feed.updatedAt()).toBe(clock.now);
    expect(logs.slice(2)).toEqual([
      'info: Price feed: BTC rates are good again.',
      'info: Price feed: USDT rates are good again.',
    ]);
  });

  it.each([
    ['btc-truncated.txt', 'answered malformed JSON'],
    ['btc-without-usd.json', 'answered no usable USD rate'],
    ['wrong-currency.json', 'answered rates of ETH, not BTC'],
    [
      'invalid-currency.json',
      'answered an unexpected shape (data: Invalid key: Expected "data" but received undefined)',
    ],
  ])('keeps the last good price when the answer is %s', async (file, message) => {
    const { feed, logs } = tickerFeed();
    await feed.poll();
    replies.BTC = { file };
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    expect(feed.fiatPerUsd('EUR')).toBeCloseTo(87_191.24 / 92_412.55, 12);
    expect(logs).toEqual([expect.stringContaining(`error: Price feed: BTC rates ${message}; keeping 92412.55 USD`)]);
  });

  it('gives up on a slow answer after its timeout', async () => {
    const { feed, logs } = tickerFeed({ timeoutMs: 300 });
    replies.BTC = { file: 'btc.json', delayMs: 30_000 };
    const started = performance.now();
    await feed.poll();
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(feed.usdPrice('BTC')).toBe(90_000);
    expect(feed.usdPrice('USDT')).toBe(1.0002);
    expect(logs).toEqual([expect.stringContaining('error: Price feed: BTC rates did not answer within 300 ms')]);
  });

  it('survives a source that refuses connections', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { feed, logs } = tickerFeed({ url: `http://127.0.0.1:${port}/v2/exchange-rates` });
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(90_000);
    expect(logs[0]).toContain('error: Price feed: BTC rates could not be fetched (ECONNREFUSED)');
  });

  it('keeps the last rate of a currency the newest answer lacks, and updates the others', async () => {
    const { feed } = tickerFeed();
    await feed.poll();
    replies.BTC = { file: 'btc-without-eur.json' };
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(94_260.8);
    expect(feed.fiatPerUsd('EUR')).toBeCloseTo(87_191.24 / 92_412.55, 12);
    expect(feed.fiatPerUsd('GBP')).toBeCloseTo(74_651.2 / 94_260.8, 12);
  });

  it('ignores an absurd jump, and adopts it only when three polls in a row agree', async () => {
    const { feed, logs, ticks } = tickerFeed();
    await feed.poll();
    replies.BTC = { file: 'btc-jump.json' };
    await feed.poll();
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    expect(feed.fiatPerUsd('EUR')).toBeCloseTo(87_191.24 / 92_412.55, 12);
    expect(logs).toEqual([expect.stringContaining('BTC rates jumped 30 % to 120136.32 USD in one poll (ignored)')]);
    // USDT still moved, so the polls still ticked, with the kept bitcoin price.
    expect(ticks.map((t) => t.usd.BTC)).toEqual([92_412.55, 92_412.55, 92_412.55]);
    replies.BTC = { file: 'btc.json' };
    await feed.poll();
    replies.BTC = { file: 'btc-jump.json' };
    await feed.poll();
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(120_136.32);
    expect(logs.at(-2)).toBe('info: Price feed: BTC at 120136.32 USD for 3 polls in a row; adopted.');
  });

  it('takes any first price, even far from the one it resumed from', async () => {
    const { feed } = tickerFeed();
    feed.resumeFrom({ at: clock.now - 3_600_000, usd: { BTC: 60_000, USDT: 0.99 } });
    expect(feed.usdPrice('BTC')).toBe(60_000);
    expect(feed.updatedAt()).toBe(clock.now - 3_600_000);
    await feed.poll();
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
    // Resuming after a good poll changes nothing: the market's price is newer.
    feed.resumeFrom({ at: 0, usd: { BTC: 1, USDT: 1 } });
    expect(feed.usdPrice('BTC')).toBe(92_412.55);
  });

  it('polls at once on start and every pollSeconds until stopped', async () => {
    const { feed, ticks } = tickerFeed({ pollSeconds: 0.05 });
    feed.start();
    feed.start();
    await expect.poll(() => ticks.length, { timeout: 2_000 }).toBeGreaterThanOrEqual(2);
    feed.stop();
    const after = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requests.length).toBe(after);
  });

  it('gives the reference service live exchange rates, seeded ones for what it does not quote', async () => {
    const testDb = await createTestDb();
    try {
      const { feed } = tickerFeed();
      const reference = createReferenceService({
        repo: createReferenceRepository(testDb.db),
        priceFeed: feed,
        now: () => clock.now,
      });
      const ctx = systemContext('test');
      const seededEur = (await reference.getCurrency(ctx, { locale: 'en', code: 'EUR' })).rate.usd;
      const seededSek = (await reference.getCurrency(ctx, { locale: 'en', code: 'SEK' })).rate;
      await feed.poll();
      const eur = await reference.getCurrency(ctx, { locale: 'en', code: 'EUR' });
      expect(eur.rate).toEqual({ usd: 0.9435, btc: 87_191.24, usdt: 0.9437 });
      expect(eur.rate.usd).not.toBe(seededEur);
      const sek = (await reference.getCurrency(ctx, { locale: 'en', code: 'SEK' })).rate;
      expect(sek.usd).toBe(seededSek.usd);
      expect(sek.btc).toBeCloseTo(92_412.55 * sek.usd, 1);
    } finally {
      await testDb.close();
    }
  });
});

describe('configuration of the price feed', () => {
  it('selects the ticker with PRICE_FEED=ticker and a URL', () => {
    const config = readConfig({ PRICE_FEED: 'ticker', PRICE_FEED_URL: 'https://api.coinbase.com/v2/exchange-rates' });
    expect(config).toMatchObject({
      PRICE_FEED: 'ticker',
      PRICE_FEED_URL: 'https://api.coinbase.com/v2/exchange-rates',
    });
    const log = { info() {}, error() {} };
    expect(createPriceFeed(config, log).source).toBe('ticker');
    expect(createPriceFeed(readConfig({}), log).source).toBe('simulated');
  });

  it.each([
    [{ PRICE_FEED: 'ticker' }, 'PRICE_FEED_URL="": is required when PRICE_FEED=ticker'],
    [{ PRICE_FEED: 'ticker', PRICE_FEED_URL: 'coinbase' }, 'PRICE_FEED_URL="coinbase": must be a URL'],
    [{ PRICE_FEED: 'ticker', PRICE_FEED_URL: 'ftp://x.example/rates' }, 'must be an http:// or https:// URL'],
    [{ PRICE_FEED: 'kraken' }, 'PRICE_FEED="kraken": must be simulated or ticker'],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });
});
