import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { errorBody, statusOf } from '../../server/http/errors.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { authorizeChannel, sessionPrincipal } from '../../server/realtime/channels.ts';
import { systemContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import { publishQuotes } from '../../server/services/quotes/publish.ts';
import { QUOTES_CHANNEL } from '../../server/services/quotes/quotes.ts';
import { type StartedHub, startHub } from '../support/hub.ts';
import { createTestApp, TEST_NOW } from '../support/test-app.ts';

// Conversion quotes over HTTP (GET /rest/v1/crypto-fiat-rates) and on the public `quotes` channel,
// wired as server/backend.ts wires them. The test feed stays at 90,000 USD per BTC and 1 per USDT.

const testContext = systemContext('test');
const bus = createInProcessBus();
const t = await createTestApp({ bus });
publishQuotes({ quotes: t.services.quotes, bus });

let hub: StartedHub;
let url: string;

beforeAll(async () => {
  hub = await startHub({
    bus,
    authorize: authorizeChannel,
    resolvePrincipal: sessionPrincipal(t.services.sessions, 'session'),
  });
  url = hub.url;
});
afterAll(async () => {
  await hub.close();
  await t.close();
});

/** Each test starts a minute after the last one's quotes expired, at a fresh price. */
let minute = 0;
beforeEach(() => {
  minute += 2;
  t.clock.now = TEST_NOW + minute * 60_000;
  t.priceFeed.resumeFrom({ at: t.clock.now, usd: { BTC: 90_000, USDT: 1 } });
});

async function rates(query = '?camelCase=1') {
  const res = await t.send(`/rest/v1/crypto-fiat-rates${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

describe('GET /rest/v1/crypto-fiat-rates with a quote', () => {
  it('adds the current quote to the market rates (camelCase=1)', async () => {
    const data = await rates();
    const now = t.clock.now / 1000;
    expect(data).toEqual({
      btcToUsd: 90_000,
      usdtToUsd: 1,
      usdtToBtc: 0.00001111,
      btcToUsdt: 90_000,
      updatedAt: now,
      quoteId: expect.stringMatching(/^qt_[0-9A-Za-z]{16}$/),
      expiredTimestamp: now + 30,
      servicePriceAsk: 90_225,
      servicePriceBid: 89_775,
      // The 24 h change (tests/api/market.test.ts): a fraction, or null without history then.
      btcChange24h: data.btcChange24h === null ? null : expect.any(Number),
      usdtChange24h: data.usdtChange24h === null ? null : expect.any(Number),
    });
    expect(await t.services.quotes.get(testContext, { id: data.quoteId })).toEqual({
      id: data.quoteId,
      expired_timestamp: now + 30,
      service_price_ask: 90_225,
      service_price_bid: 89_775,
    });
  });

  it('answers snake_case keys without camelCase', async () => {
    const data = await rates('');
    expect(Object.keys(data).sort()).toEqual([
      'btc_change24h',
      'btc_to_usd',
      'btc_to_usdt',
      'expired_timestamp',
      'quote_id',
      'service_price_ask',
      'service_price_bid',
      'updated_at',
      'usdt_change24h',
      'usdt_to_btc',
      'usdt_to_usd',
    ]);
    expect(data.quote_id).toMatch(/^qt_/);
    expect(data.expired_timestamp).toBe(t.clock.now / 1000 + 30);
  });

  it('keeps a quote while half its time is left, then gives a new one', async () => {
    const first = await rates();
    t.clock.now += 15_000;
    expect((await rates()).quoteId).toBe(first.quoteId);
    t.clock.now += 1_000;
    const second = await rates();
    expect(second.quoteId).not.toBe(first.quoteId);
    expect(second.expiredTimestamp).toBe(t.clock.now / 1000 + 30);
  });

  it('answers null quote fields when the prices are too old to quote', async () => {
    t.clock.now += 5 * 60_000;
    const data = await rates();
    expect(data).toMatchObject({ quoteId: null, expiredTimestamp: null, servicePriceAsk: null, servicePriceBid: null });
    expect(data.btcToUsd).toBe(90_000);
  });

  it('converts at the quote it shows until it expires', async () => {
    const { quoteId, expiredTimestamp } = await rates();
    const convert = () =>
      t.services.quotes.convertAmount(testContext, { from: 'USDT', to: 'BTC', amountMinor: 902_250_000, quoteId });
    expect((await convert()).amountTo).toBe(1_000_000); // 902.25 USDT at 90,225.00 → 0.01 BTC
    t.clock.now = expiredTimestamp * 1000;
    await expect(convert()).rejects.toThrow(AppError);
    try {
      await convert();
      expect.unreachable();
    } catch (error) {
      const body = errorBody(error as AppError);
      expect(statusOf[(error as AppError).code]).toBe(409);
      expect(body.errors[0]).toMatchObject({ code: 'QUOTE_EXPIRED', field: 'quote_id' });
      expect(body.meta).toEqual({ expiredTimestamp });
    }
    expect(statusOf.QUOTE_UNKNOWN).toBe(409);
  });
});

async function socket() {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = () => new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
  const ask = (message: unknown) => {
    const reply = next();
    ws.send(JSON.stringify(message));
    return reply;
  };
  return { ws, ask, next };
}

describe('the quotes channel', () => {
  it('is public: an anonymous socket receives a quote at every price tick', async () => {
    const { ws, ask, next } = await socket();
    expect(await ask({ type: 'subscribe', channel: QUOTES_CHANNEL })).toEqual({
      type: 'subscribed',
      channel: 'quotes',
    });
    const event = next();
    const quote = await t.services.quotes.fromTick({ at: t.clock.now, usd: { BTC: 100_000, USDT: 1 } });
    expect(quote).toBeDefined();
    expect(await event).toEqual({
      type: 'event',
      channel: 'quotes',
      event: {
        type: 'quote',
        payload: {
          id: quote?.id,
          expired_timestamp: t.clock.now / 1000 + 30,
          service_price_ask: 100_250,
          service_price_bid: 99_750,
        },
      },
    });
    ws.close();
  });

  it('also carries a quote issued between ticks for the rates call', async () => {
    const { ws, ask, next } = await socket();
    await ask({ type: 'subscribe', channel: QUOTES_CHANNEL });
    const event = next();
    const { quoteId } = await rates();
    expect((await event).event.payload.id).toBe(quoteId);
    ws.close();
  });
});
