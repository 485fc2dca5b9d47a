import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../../server/app.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { createChannelAuthorizer, personalChannel, tradeChannel } from '../../server/realtime/channels.ts';
import { PUSH_KEY_TTL_MS } from '../../server/realtime/push-keys.ts';
import { systemContext } from '../../server/services/context.ts';
import { createRealtimeClient, type RealtimeEvent } from '../../src/lib/realtime-client.ts';
import { type StartedHub, startHub } from '../support/hub.ts';
import type { signedInAs } from '../support/signed-in.ts';
import { createTestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';
import { openSocket } from '../support/ws-client.ts';

// Push authorisation (spec sections 7 and 8) with real ws clients: a key from push-authorize lets
// a socket join only its owner's channels; a foreign channel or key is refused; an expired key
// makes the heartbeat answer ACCESS_DENIED and the client re-authorises with a new key; refused
// channels are retried 3 times, attempt × the delay.

const bus = createInProcessBus();
const t = await createTestApp({ bus });
/** The trades service's answer, stood in for: the buyer follows this one trade. */
const FOLLOWED = 'Tr4deHash01';
let buyer: Awaited<ReturnType<typeof signedInAs>>;
let vendor: Awaited<ReturnType<typeof signedInAs>>;
const authorize = createChannelAuthorizer({
  tradeAccess: (hash, userId) => hash === FOLLOWED && userId === buyer.id,
});
// The same app the backend builds, with the hub's authoriser (server/backend.ts).
const app = createApp({ services: t.services, authorizeChannel: authorize, logError: () => {} });
let hub: StartedHub;
let url: string;

beforeAll(async () => {
  buyer = await (await createUser(t)).session();
  vendor = await (await createUser(t, { vendor: true })).session();
  hub = await startHub({
    bus,
    authorize,
    verifyKey: t.services.pushKeys.verify,
    isSessionLive: t.services.sessions.isLive,
    now: () => t.clock.now,
    resolvePrincipal: async (req) => {
      // Cookie sockets as in production; most sockets here carry only a key.
      const cookie = req.headers.cookie ?? '';
      const match = /session=([^;]+)/.exec(cookie);
      const found = match?.[1] ? await t.services.sessions.validate(match[1]) : null;
      return found ? { userId: found.user.id, userPublicId: found.user.publicId } : {};
    },
  });
  url = hub.url;
});
afterAll(async () => {
  await hub.close();
  await t.close();
});

const post = (who: { cookie: string }, path: string, json: unknown) => {
  const csrf = /XSRF-TOKEN=([^;]+)/.exec(who.cookie)?.[1] ?? '';
  return app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: {
      cookie: who.cookie,
      'X-CSRF-Token': csrf,
      origin: 'http://localhost',
      'content-type': 'application/json',
    },
    body: JSON.stringify(json),
  });
};

async function keyFor(who: { cookie: string }, id: string, channels?: string[]) {
  const res = await post(who, `/trade/push-authorize/${id}?camelCase=1`, channels ? { channels } : {});
  return { status: res.status, body: (await res.json()) as any };
}

const socket = (cookie?: string) => openSocket(url, cookie);

describe('POST /trade/push-authorize/{id}', () => {
  it('gives the caller a key for their own channels, by default notifications, telegram and wallet', async () => {
    const { status, body } = await keyFor(buyer, buyer.publicId);
    expect(status).toBe(200);
    expect(body.data.channels).toEqual([
      personalChannel('notifications', buyer.publicId),
      personalChannel('telegram', buyer.publicId),
      personalChannel('wallet', buyer.publicId),
    ]);
    expect(body.data.auth_key).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(body.data.expiresAt).toBe(Math.floor((t.clock.now + PUSH_KEY_TTL_MS) / 1000));
    const quotes = await keyFor(buyer, buyer.publicId, ['quotes', personalChannel('notifications', buyer.publicId)]);
    expect(quotes.body.data.channels).toEqual(['quotes', personalChannel('notifications', buyer.publicId)]);
  });

  it('gives a trade’s channel to those who follow it only', async () => {
    expect((await keyFor(buyer, FOLLOWED)).body.data.channels).toEqual([tradeChannel(FOLLOWED)]);
    expect((await keyFor(vendor, FOLLOWED)).status).toBe(403);
    expect((await keyFor(buyer, 'SomeoneElses')).status).toBe(403);
  });

  it("refuses another user's id or channels, no session, no CSRF token and bad input", async () => {
    expect((await keyFor(buyer, vendor.publicId)).status).toBe(403);
    const foreign = await keyFor(buyer, buyer.publicId, [personalChannel('notifications', vendor.publicId)]);
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0]).toMatchObject({ code: 'FORBIDDEN', field: 'channels' });
    expect((await keyFor(buyer, buyer.publicId, ['trades'])).status).toBe(403);
    expect((await keyFor({ cookie: `XSRF-TOKEN=${'A'.repeat(43)}` }, buyer.publicId)).status).toBe(401);
    const noCsrf = await app.request(`http://localhost/trade/push-authorize/${buyer.publicId}`, {
      method: 'POST',
      headers: { cookie: buyer.cookie, origin: 'http://localhost', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noCsrf.status).toBe(403);
    expect((await keyFor(buyer, buyer.publicId, ['NOT A CHANNEL'])).status).toBe(400);
    expect((await post(buyer, '/account/re-auth-push-subscription', { channels: [] })).status).toBe(400);
  });
});

describe('sockets with a key', () => {
  it('join the channels of their key, hear their events, and nothing of another user', async () => {
    const { body } = await keyFor(buyer, buyer.publicId);
    const { ws, ask } = await socket();
    const mine = personalChannel('notifications', buyer.publicId);
    // Without the key the anonymous socket may not.
    expect(await ask({ type: 'subscribe', channel: mine })).toMatchObject({ code: 'CHANNEL_FORBIDDEN' });
    expect(await ask({ type: 'auth', key: body.data.auth_key })).toEqual({
      type: 'authorized',
      expiresAt: t.clock.now + PUSH_KEY_TTL_MS,
    });
    expect(await ask({ type: 'subscribe', channel: mine })).toEqual({ type: 'subscribed', channel: mine });
    for (const theirs of [personalChannel('notifications', vendor.publicId), tradeChannel(FOLLOWED), 'trades']) {
      expect(await ask({ type: 'subscribe', channel: theirs })).toMatchObject({ code: 'CHANNEL_FORBIDDEN' });
    }
    const heard = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    await t.services.notifications.notify(systemContext('test'), {
      userId: buyer.id,
      type: 'trade_paid',
      link: '/trade/x',
      message: { key: 'trade_paid', params: { username: 'vendor' } },
    });
    expect((await heard).event).toMatchObject({ type: 'notification', payload: { type: 'trade_paid', isRead: false } });
    ws.close();
  });

  it('refuses a forged key, and a key of another user on a signed-in socket', async () => {
    const { body } = await keyFor(buyer, buyer.publicId);
    const [payload, signature] = (body.data.auth_key as string).split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), p: vendor.publicId }),
    ).toString('base64url');
    const anonymous = await socket();
    expect(await anonymous.ask({ type: 'auth', key: `${forgedBody}.${signature}` })).toEqual({
      type: 'error',
      code: 'ACCESS_DENIED',
    });
    const vendorSocket = await socket(vendor.cookie);
    expect(await vendorSocket.ask({ type: 'auth', key: body.data.auth_key })).toMatchObject({ code: 'ACCESS_DENIED' });
    // Its own cookie still works as before.
    const own = personalChannel('wallet', vendor.publicId);
    expect(await vendorSocket.ask({ type: 'subscribe', channel: own })).toEqual({ type: 'subscribed', channel: own });
    anonymous.ws.close();
    vendorSocket.ws.close();
  });

  it('answers the heartbeat with ACCESS_DENIED once the key expired, and stops the events', async () => {
    const { body } = await keyFor(buyer, buyer.publicId);
    const { ws, ask } = await socket();
    const mine = personalChannel('notifications', buyer.publicId);
    await ask({ type: 'auth', key: body.data.auth_key });
    await ask({ type: 'subscribe', channel: mine });
    expect(await ask({ type: 'ping' })).toEqual({ type: 'pong' });
    t.clock.now += PUSH_KEY_TTL_MS + 1;
    expect(await ask({ type: 'ping' })).toEqual({ type: 'error', code: 'ACCESS_DENIED', channels: [mine] });
    expect(await ask({ type: 'auth', key: body.data.auth_key })).toMatchObject({ code: 'ACCESS_DENIED' });
    const renewed = await post(buyer, '/account/re-auth-push-subscription', { channels: [mine] });
    expect(renewed.status).toBe(200);
    const { data } = (await renewed.json()) as any;
    expect(await ask({ type: 'auth', key: data.auth_key })).toMatchObject({ type: 'authorized' });
    expect(await ask({ type: 'subscribe', channel: mine })).toEqual({ type: 'subscribed', channel: mine });
    ws.close();
  });
});

describe('the browser client (src/lib/realtime-client.ts) against the hub', () => {
  const authorizeAs = (who: typeof buyer, id: string) => async () =>
    ((await (await post(who, `/trade/push-authorize/${id}?camelCase=1`, {})).json()) as any).data?.auth_key;
  const reauthorizeAs = (who: typeof buyer) => async (channels: readonly string[]) =>
    ((await (await post(who, '/account/re-auth-push-subscription', { channels })).json()) as any).data?.auth_key;

  it('re-authorises after an access-denied heartbeat and keeps hearing its channel', async () => {
    const channel = personalChannel('notifications', buyer.publicId);
    const events: RealtimeEvent[] = [];
    let reauthorized = 0;
    const subscribed: string[] = [];
    const client = createRealtimeClient({
      url,
      channels: [channel],
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
      heartbeatMs: 30,
      authorize: authorizeAs(buyer, buyer.publicId),
      reauthorize: async (channels) => {
        reauthorized += 1;
        return reauthorizeAs(buyer)(channels);
      },
      onEvent: (_c, event) => events.push(event),
      onStatus: (c, status) => subscribed.push(`${c} ${status}`),
      retryDelayMs: 1,
    });
    await expect.poll(() => subscribed.length).toBe(1);
    t.clock.now += PUSH_KEY_TTL_MS + 1;
    await expect.poll(() => reauthorized, { timeout: 3000 }).toBe(1);
    await expect.poll(() => subscribed.length).toBe(2);
    bus.publish(channel, { type: 'notification', payload: { id: 'after' } });
    await expect.poll(() => events.map((e) => (e.payload as any).id)).toEqual(['after']);
    expect(subscribed).toEqual([`${channel} subscribed`, `${channel} subscribed`]);
    client.close();
  });

  it('retries a refused channel 3 times, waiting attempt × the delay, then gives it up', async () => {
    const foreign = personalChannel('notifications', vendor.publicId);
    const waits: number[] = [];
    const failed: string[] = [];
    const client = createRealtimeClient({
      url,
      channels: [foreign],
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
      authorize: authorizeAs(buyer, buyer.publicId),
      onEvent: () => {},
      onStatus: (c, status) => status === 'failed' && failed.push(c),
      retryDelayMs: 1000,
      schedule: (run, ms) => {
        waits.push(ms);
        setTimeout(run, 0);
      },
    });
    await expect.poll(() => failed).toEqual([foreign]);
    expect(waits).toEqual([1000, 2000, 3000]);
    client.close();
  });
});
