import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectDatabase } from '../../db/database.ts';
import { DEMO_PASSWORD } from '../../db/seed/demo.ts';
import { userCommands } from '../../server/admin/user-commands.ts';
import { createApp } from '../../server/app.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import {
  createChannelAuthorizer,
  personalChannel,
  sessionPrincipal,
  tradeChannel,
} from '../../server/realtime/channels.ts';
import { SESSION_END_POLL_MS, SESSIONS_CHANNEL, watchSessionEnds } from '../../server/realtime/session-ends.ts';
import { systemContext } from '../../server/services/context.ts';
import { tradeChannelAccess } from '../../server/services/trades/trades.ts';
import { createRealtimeClient } from '../../src/lib/realtime-client.ts';
import { browserSession } from '../support/browser-session.ts';
import { startHub } from '../support/hub.ts';
import { signedInAs } from '../support/signed-in.ts';
import { createTestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// Issue 16 item 4, "Sockets end with their session": a person with an open socket on their
// notifications and a trade's chat hears nothing more once the session behind the socket ends,
// however it ends, and is told so (ACCESS_DENIED with the channels it lost); public channels stay.
//
// Two hubs over one database, wired as server/backend.ts wires one but each with one of its two
// ways of hearing ends:
// - `local` hears the session service's `session.ended` on the bus, and nothing else: the ends of
//   its own process;
// - `elsewhere` is another server process: it shares the domain events but never hears the bus's
//   `sessions` channel, so only its poll of the end log can tell it (the admin CLI's case).
//
// "Nothing arrives" needs no sleep: after publishing, the test pings and waits for the pong. The
// hub writes a socket's frames in order, so an event it sent would come before that pong.

const bus = createInProcessBus();
const t = await createTestApp({ bus });
/** The admin CLI (`npm run admin -- user:…`) runs in its own process, with its own connection. */
const cliDb = await connectDatabase(t.dbUrl);
const f = tradeFixtures(t);
const authorize = createChannelAuthorizer({ tradeAccess: tradeChannelAccess(t.services.trades) });
/** The app as the backend builds it, with the hub's authoriser (push keys for trade channels). */
const app = createApp({ services: t.services, authorizeChannel: authorize, logError: () => {} });

interface Frame {
  type: string;
  code?: string;
  channel?: string;
  channels?: string[];
  event?: { type: string; payload?: unknown };
}
interface Person {
  id: number;
  publicId: string;
  email: string;
}

let tradeHash = '';
let buyer: Person;
let vendor: Person;
const closers: (() => unknown)[] = [];

async function hubFor(hubBus: EventBus, { watch }: { watch: boolean }) {
  const started = await startHub({
    bus: hubBus,
    authorize,
    verifyKey: t.services.pushKeys.verify,
    isSessionLive: t.services.sessions.isLive,
    now: () => t.clock.now,
    resolvePrincipal: sessionPrincipal(t.services.sessions, 'session'),
  });
  const stopWatching = watch
    ? watchSessionEnds({ source: t.services.sessions, onEnded: started.hub.endSessions })
    : () => {};
  closers.push(async () => {
    stopWatching();
    await started.close();
  });
  return started.url;
}

let local = '';
let elsewhere = '';

beforeAll(async () => {
  const market = await f.openMarket(1_000_000);
  const offer = await f.createOffer(market.vendor);
  tradeHash = (await f.startTrade(market.buyer, offer)).hash;
  const person = async (email: string): Promise<Person> => ({
    ...((await t.db.sql.get<{ id: number; publicId: string }>(
      'SELECT id, public_id AS publicId FROM users WHERE email = ?',
      [email],
    )) as { id: number; publicId: string }),
    email,
  });
  buyer = await person('buyer@example.com');
  vendor = await person('vendor@example.com');
  local = await hubFor(bus, { watch: false });
  const deafToSessionEnds: EventBus = {
    publish: bus.publish,
    subscribe: (channel, listener) => (channel === SESSIONS_CHANNEL ? () => {} : bus.subscribe(channel, listener)),
  };
  elsewhere = await hubFor(deafToSessionEnds, { watch: true });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await cliDb.close();
  await t.close();
});

/** Bounded: the hub answers in milliseconds; the poll of the end log within SESSION_END_POLL_MS. */
async function waitFor<T>(find: () => T | undefined, timeout = 2000): Promise<T> {
  await expect.poll(find, { timeout, interval: 10 }).toBeDefined();
  return find() as T;
}

async function connect(url: string, cookie?: string) {
  const ws = new WebSocket(url, cookie ? { headers: { cookie } } : {});
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  closers.push(() => ws.close());
  const request = (message: unknown, answer: (frame: Frame) => boolean) => {
    const from = frames.length;
    ws.send(JSON.stringify(message));
    return waitFor(() => frames.slice(from).find(answer));
  };
  return {
    ws,
    frames,
    subscribe: (channel: string) =>
      request({ type: 'subscribe', channel }, (f) => f.channel === channel || f.type === 'error'),
    auth: (key: string) => request({ type: 'auth', key }, (f) => f.type === 'authorized' || f.type === 'error'),
    /** Returns once the hub answered a ping: every frame it sent before is in `frames`. */
    flush: () => request({ type: 'ping' }, (f) => f.type === 'pong'),
  };
}
type Socket = Awaited<ReturnType<typeof connect>>;

const channelsOf = (who: Person) => [personalChannel('notifications', who.publicId), tradeChannel(tradeHash)];

/** A socket on the person's notifications, the trade and the public rates, by cookie or by key. */
async function follow(url: string, who: Person, { cookie, key }: { cookie?: string; key?: string }) {
  const socket = await connect(url, cookie);
  if (key) expect(await socket.auth(key)).toMatchObject({ type: 'authorized' });
  for (const channel of [...channelsOf(who), 'rates']) {
    expect(await socket.subscribe(channel)).toEqual({ type: 'subscribed', channel });
  }
  await expectHears(socket, who);
  return socket;
}

let line = 0;
/** What reaches a signed-in person live: a chat line from the other party and a notification. */
async function liveEvents(who: Person) {
  const other = who.id === buyer.id ? vendor : buyer;
  const res = await (await signedInAs(t, other.email)).post(`/rest/v1/trade/${tradeHash}/messages`, {
    text: `line ${++line}`,
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  await t.services.notifications.notify(systemContext('test'), {
    userId: who.id,
    type: 'trade_paid',
    link: `/trade/${tradeHash}`,
    message: { key: 'trade_paid', params: { username: other.email } },
  });
}

const eventsIn = (frames: Frame[]) => frames.filter((frame) => frame.type === 'event').map((frame) => frame.channel);

async function expectHears(socket: Socket, who: Person) {
  const mark = socket.frames.length;
  await liveEvents(who);
  await waitFor(() => {
    const heard = eventsIn(socket.frames.slice(mark));
    return channelsOf(who).every((channel) => heard.includes(channel)) ? true : undefined;
  });
}

/** Told which channels went, hears nothing more on them, and still hears the public rates. */
async function expectCut(socket: Socket, who: Person, timeout?: number) {
  const denial = await waitFor(() => socket.frames.find((frame) => frame.code === 'ACCESS_DENIED'), timeout);
  expect(denial).toEqual({ type: 'error', code: 'ACCESS_DENIED', channels: expect.any(Array) });
  expect([...(denial.channels ?? [])].sort()).toEqual(channelsOf(who).sort());
  const mark = socket.frames.length;
  await liveEvents(who);
  bus.publish('rates', { type: 'rates', payload: { BTC: 90_000 } });
  await socket.flush();
  expect(eventsIn(socket.frames.slice(mark))).toEqual(['rates']);
  // Subscribing again is refused: the socket is nobody's now.
  for (const channel of channelsOf(who)) {
    expect(await socket.subscribe(channel)).toMatchObject({ type: 'error', code: 'CHANNEL_FORBIDDEN', channel });
  }
  expect(socket.ws.readyState).toBe(WebSocket.OPEN);
}

const tokenOf = (cookie: string) => /(?:^|; )session=([^;]+)/.exec(cookie)?.[1] ?? '';
const sessionPublicIdOf = async (cookie: string) =>
  (await t.services.sessions.validate(tokenOf(cookie)))?.session.publicId;

describe('a socket authorised by a session cookie loses its channels when the session ends', () => {
  it('at logout', async () => {
    const tab = await signedInAs(t, buyer.email);
    const socket = await follow(local, buyer, { cookie: tab.cookie });
    expect((await tab.post('/rest/v1/auth/logout')).status).toBe(200);
    await expectCut(socket, buyer);
  });

  it('at a password change, this browser’s old session included', async () => {
    const tab = await signedInAs(t, buyer.email);
    const socket = await follow(local, buyer, { cookie: tab.cookie });
    const res = await tab.post('/rest/v1/users/change-password', {
      currentPassword: DEMO_PASSWORD,
      newPassword: 'Socket-revocation-73',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectCut(socket, buyer);
  });

  it('at a password reset through the mailed link', async () => {
    const tab = await signedInAs(t, buyer.email);
    const socket = await follow(local, buyer, { cookie: tab.cookie });
    expect((await browserSession(t).post('/rest/v1/auth/forgot-password', { email: buyer.email })).status).toBe(200);
    const mail = t.sent.filter((m) => m.to === buyer.email && m.subject.includes('Reset')).at(-1);
    const token = /\/reset-password\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const res = await browserSession(t).post('/rest/v1/auth/reset-password', { token, password: 'Reset-socket-91' });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectCut(socket, buyer);
  });

  it('at "end other sessions": the other browser’s socket is cut, this one keeps hearing', async () => {
    const here = await signedInAs(t, buyer.email);
    const there = await signedInAs(t, buyer.email);
    const mine = await follow(local, buyer, { cookie: here.cookie });
    const theirs = await follow(local, buyer, { cookie: there.cookie });
    expect((await here.post('/rest/v1/users/sessions/revoke-others')).status).toBe(200);
    await expectCut(theirs, buyer);
    expect(mine.frames.some((frame) => frame.type === 'error')).toBe(false);
    await expectHears(mine, buyer);
  });

  it('when the person signs one device out from the list', async () => {
    const here = await signedInAs(t, buyer.email);
    const there = await signedInAs(t, buyer.email);
    const theirs = await follow(local, buyer, { cookie: there.cookie });
    const res = await here.post('/rest/v1/users/sessions/revoke', { id: await sessionPublicIdOf(there.cookie) });
    expect(res.status).toBe(200);
    await expectCut(theirs, buyer);
  });

  it('when the person reports the device from the review mail', async () => {
    const stranger = browserSession(t, '192.0.2.77');
    const login = await stranger.send('/rest/v1/auth/login', {
      method: 'POST',
      json: { email: vendor.email, password: DEMO_PASSWORD },
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' },
    });
    expect(login.status).toBe(200);
    const mail = t.sent.filter((m) => m.to === vendor.email && /review-device\?token=/.test(m.text)).at(-1);
    const deviceToken = /review-device\?token=([0-9a-f]{64})/.exec(mail?.text ?? '')?.[1];
    const cookie = [...stranger.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const socket = await follow(local, vendor, { cookie });
    const res = await t.send('/rest/v1/castle/review-device', {
      method: 'POST',
      json: { isConfirmed: false, deviceToken },
    });
    expect(res.status).toBe(200);
    await expectCut(socket, vendor);
  });
});

/** The push key the page asks for (POST /trade/push-authorize or re-auth-push-subscription). */
async function pushKey(cookie: string, channels: readonly string[], path = `/trade/push-authorize/${buyer.publicId}`) {
  const res = await app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: {
      cookie,
      [CSRF_HEADER]: new RegExp(`${CSRF_COOKIE}=([^;]+)`).exec(cookie)?.[1] ?? '',
      origin: 'http://localhost',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ channels }),
  });
  return res.status === 200 ? ((await res.json()) as { data: { auth_key: string } }).data.auth_key : undefined;
}

describe('a socket authorised by an auth_key loses its channels when the key’s session ends', () => {
  it('and the key is refused from then on', async () => {
    const tab = await signedInAs(t, buyer.email);
    const key = (await pushKey(tab.cookie, channelsOf(buyer))) ?? '';
    // No cookie: only the key authorises this socket.
    const socket = await follow(local, buyer, { key });
    expect((await tab.post('/rest/v1/auth/logout')).status).toBe(200);
    await expectCut(socket, buyer);
    expect(await socket.auth(key)).toEqual({ type: 'error', code: 'ACCESS_DENIED' });
    const fresh = await connect(local);
    expect(await fresh.auth(key)).toEqual({ type: 'error', code: 'ACCESS_DENIED' });
  });
});

describe('the browser client (src/lib/realtime-client.ts) after its session ended', () => {
  /** The bell's client, with the keys of whichever session the browser's cookie holds now. */
  function bell(browser: { cookie: string }) {
    const heard: string[] = [];
    const status: string[] = [];
    let asked = 0;
    const client = createRealtimeClient({
      url: local,
      channels: channelsOf(buyer),
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
      authorize: () => pushKey(browser.cookie, channelsOf(buyer)),
      reauthorize: (channels) => {
        asked += 1;
        return pushKey(browser.cookie, channels, '/account/re-auth-push-subscription');
      },
      onEvent: (channel) => heard.push(channel),
      onStatus: (channel, state) => status.push(`${channel} ${state}`),
      retryDelayMs: 1,
    });
    closers.push(() => client.close());
    return { heard, status, asked: () => asked };
  }
  const subscribed = () => channelsOf(buyer).map((c) => `${c} subscribed`);

  it('gives its channels up when the browser is signed out', async () => {
    const browser = { cookie: (await signedInAs(t, buyer.email)).cookie };
    const client = bell(browser);
    await expect.poll(() => client.status).toEqual(subscribed());
    await (await signedInAs(t, buyer.email)).post('/rest/v1/users/sessions/revoke', {
      id: await sessionPublicIdOf(browser.cookie),
    });
    await expect
      .poll(() => client.status.filter((s) => s.endsWith('failed')).sort())
      .toEqual(
        channelsOf(buyer)
          .map((c) => `${c} failed`)
          .sort(),
      );
    expect(client.asked()).toBe(1);
    const before = client.heard.length;
    await liveEvents(buyer);
    // A bounded wait: this socket is the client's, so no ping barrier (the hub tests above have one).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.heard.slice(before)).toEqual([]);
  });

  it('follows the browser into its new session when it signed in again', async () => {
    const browser = { cookie: (await signedInAs(t, buyer.email)).cookie };
    const client = bell(browser);
    await expect.poll(() => client.status).toEqual(subscribed());
    const ended = browser.cookie;
    browser.cookie = (await signedInAs(t, buyer.email)).cookie;
    await (await signedInAs(t, buyer.email)).post('/rest/v1/users/sessions/revoke', {
      id: await sessionPublicIdOf(ended),
    });
    await expect.poll(() => client.status.length).toBe(4);
    expect(client.status.slice(2)).toEqual(subscribed());
    const before = client.heard.length;
    await liveEvents(buyer);
    await expect.poll(() => [...new Set(client.heard.slice(before))].sort()).toEqual(channelsOf(buyer).sort());
  });
});

describe('another server process, which never hears the bus’s session ends, polls the end log', () => {
  const within = 2 * SESSION_END_POLL_MS;

  it('cuts the socket of a session that signed out on this process', async () => {
    const tab = await signedInAs(t, buyer.email);
    const socket = await follow(elsewhere, buyer, { cookie: tab.cookie });
    expect((await tab.post('/rest/v1/auth/logout')).status).toBe(200);
    await expectCut(socket, buyer, within);
  });

  const cli = () => userCommands(cliDb);

  it('cuts the sockets of a person banned with `admin user:ban`', async () => {
    const commands = cli();
    const socket = await follow(elsewhere, buyer, { cookie: (await signedInAs(t, buyer.email)).cookie });
    expect(await commands.ban(buyer.email)).toMatch(/banned; [1-9]\d* session\(s\) ended/);
    await expectCut(socket, buyer, within);
    await commands.reinstate(buyer.email);
  });

  it('cuts the sockets of a person suspended with `admin user:suspend`', async () => {
    const commands = cli();
    const socket = await follow(elsewhere, buyer, { cookie: (await signedInAs(t, buyer.email)).cookie });
    expect(await commands.suspend(buyer.email)).toMatch(/suspended .*; [1-9]\d* session\(s\) ended/);
    await expectCut(socket, buyer, within);
    await commands.reinstate(buyer.email);
  });
});
