import { afterEach, describe, expect, it } from 'vitest';
import { telegramCommands } from '../../server/admin/telegram-commands.ts';
import { CommandError } from '../../server/admin/user-commands.ts';
import { readConfig } from '../../server/config.ts';
import { type BusEvent, createInProcessBus } from '../../server/realtime/bus.ts';
import { authorizeChannel } from '../../server/realtime/channels.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../support/test-app.ts';
import { createUser, type TestUser } from '../support/users.ts';

let t: TestApp;
// The configuration tests make no app of their own: each app is closed once, not again after them.
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp;
});

type Browser = ReturnType<typeof browserSession>;

/** The test's person: a fresh account in the test's app, made on first use. */
let made: { app: typeof t; user: TestUser } | undefined;
const person = async () => {
  if (made?.app !== t) made = { app: t, user: await createUser(t) };
  return made.user;
};

const signedIn = async (email?: string, ip?: string) => signedInSession(t, email ?? (await person()).email, ip);

const publicIdOf = async (email: string) =>
  (await t.db.sql.get<{ public_id: string }>('SELECT public_id FROM users WHERE email = ?', [email]))?.public_id;

const telegramRow = (email: string) =>
  t.db.sql.get<{ token: string | null; chatId: string | null }>(
    'SELECT telegram_link_token AS token, telegram_chat_id AS chatId FROM user_settings s JOIN users u ON u.id = s.user_id WHERE u.email = ?',
    [email],
  );

/** Subscribes and answers the token of the link, as the bot would receive it on Start. */
async function subscribe(b: Browser): Promise<string> {
  const res = await b.post('/rest/v1/telegram/subscribe');
  expect(res.status).toBe(200);
  const { subscriptionUrl } = (await res.json()).data;
  return new URL(subscriptionUrl).searchParams.get('start') ?? '';
}

const subscribed = async (b: Browser) =>
  (await (await b.get('/rest/v1/users/settings')).json()).data.telegramSubscribed as boolean;

/** Collects what is published on one channel. */
function watch(bus: ReturnType<typeof createInProcessBus>, channel: string) {
  const events: BusEvent[] = [];
  bus.subscribe(channel, (event) => events.push(event));
  return events;
}

describe('POST /rest/v1/telegram/subscribe', () => {
  it('answers a bot link with a fresh random token, kept only as a hash', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const res = await b.post('/rest/v1/telegram/subscribe');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.subscriptionUrl).toMatch(/^https:\/\/t\.me\/CoinfairBot\?start=[A-Za-z0-9_-]{43}$/);
    const token = new URL(data.subscriptionUrl).searchParams.get('start');
    const row = await telegramRow((await person()).email);
    expect(row?.token).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token).not.toBe(token);
    expect(row?.chatId).toBeNull();
    expect(await subscribed(b)).toBe(false);
    expect(await subscribe(b)).not.toBe(token);
  });

  it('uses the configured bot name', async () => {
    t = await createTestApp({ config: { TELEGRAM_BOT_NAME: 'AcmeP2P_bot' } });
    const b = await signedIn();
    const { data } = await (await b.post('/rest/v1/telegram/subscribe')).json();
    expect(data.subscriptionUrl).toMatch(/^https:\/\/t\.me\/AcmeP2P_bot\?start=/);
  });
});

describe('the bot pressing Start', () => {
  it('links the chat, tells the person’s pages and greets the chat', async () => {
    const bus = createInProcessBus();
    t = await createTestApp({ bus });
    // The seeded buyer: the bot greets it by its username, `buyer`.
    const b = await signedIn('buyer@example.com');
    const channel = `telegram:${await publicIdOf('buyer@example.com')}`;
    expect(authorizeChannel(channel, { userPublicId: await publicIdOf('buyer@example.com') })).toBe(true);
    const events = watch(bus, channel);

    const token = await subscribe(b);
    const linked = await t.services.telegramBot.handleStart(token, '123456789');
    expect(linked).toMatchObject({ userPublicId: await publicIdOf('buyer@example.com'), username: 'buyer' });
    expect(events).toEqual([{ type: 'telegram_status', payload: { status: 'subscribed' } }]);
    expect(await telegramRow('buyer@example.com')).toEqual({ token: null, chatId: '123456789' });
    expect(await subscribed(b)).toBe(true);
    expect(t.services.telegramBot.sent).toEqual([{ chatId: '123456789', text: expect.stringContaining('buyer') }]);
  });

  it('accepts a link once, and only the latest link', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const first = await subscribe(b);
    const second = await subscribe(b);
    await expect(t.services.telegramBot.handleStart(first, '1001')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await t.services.telegramBot.handleStart(second, '1002');
    await expect(t.services.telegramBot.handleStart(second, '1003')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await telegramRow((await person()).email))?.chatId).toBe('1002');
  });

  it.each([[''], ['not a token!'], ['x'.repeat(65)], ['A'.repeat(43)]])('refuses the token %j', async (token) => {
    t = await createTestApp();
    await subscribe(await signedIn());
    await expect(t.services.telegramBot.handleStart(token, '1001')).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await telegramRow((await person()).email))?.chatId).toBeNull();
  });

  it('refuses a chat id that is not a number', async () => {
    t = await createTestApp();
    const token = await subscribe(await signedIn());
    await expect(t.services.telegramBot.handleStart(token, 'chat-1')).rejects.toMatchObject({
      code: 'ERROR_INPUT_VALIDATION',
    });
    // The link still works for the real Start.
    await t.services.telegramBot.handleStart(token, '-100200300');
    expect((await telegramRow((await person()).email))?.chatId).toBe('-100200300');
  });

  it("links the token's owner only, and tells only them", async () => {
    const bus = createInProcessBus();
    t = await createTestApp({ bus });
    const other = await createUser(t);
    const buyer = await signedIn(undefined, '198.51.100.50');
    const vendor = await other.signIn('198.51.100.51');
    const vendorEvents = watch(bus, `telegram:${other.publicId}`);
    await subscribe(vendor);
    await t.services.telegramBot.handleStart(await subscribe(buyer), '777');
    expect(await subscribed(buyer)).toBe(true);
    expect(await subscribed(vendor)).toBe(false);
    expect(vendorEvents).toEqual([]);
  });
});

describe('POST /rest/v1/telegram/unsubscribe', () => {
  it('clears the chat and the link, and tells the pages', async () => {
    const bus = createInProcessBus();
    t = await createTestApp({ bus });
    const b = await signedIn();
    const events = watch(bus, `telegram:${(await person()).publicId}`);
    await t.services.telegramBot.handleStart(await subscribe(b), '4242');
    const pending = await subscribe(b);

    const res = await b.post('/rest/v1/telegram/unsubscribe');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { telegramSubscribed: false } });
    expect(await telegramRow((await person()).email)).toEqual({ token: null, chatId: null });
    expect(await subscribed(b)).toBe(false);
    expect(events.map((e) => (e.payload as { status: string }).status)).toEqual(['subscribed', 'unsubscribed']);
    await expect(t.services.telegramBot.handleStart(pending, '4242')).rejects.toMatchObject({
      code: 'TOKEN_INVALID',
    });
  });

  it('is harmless when nothing was subscribed', async () => {
    t = await createTestApp();
    const res = await (await signedIn()).post('/rest/v1/telegram/unsubscribe');
    expect(res.status).toBe(200);
    expect(await telegramRow((await person()).email)).toBeUndefined();
  });
});

describe.each(['/rest/v1/telegram/subscribe', '/rest/v1/telegram/unsubscribe'])('POST %s', (path) => {
  it('needs a session', async () => {
    t = await createTestApp();
    const res = await browserSession(t).post(path);
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].code).toBe('UNAUTHENTICATED');
  });

  it('needs the CSRF token', async () => {
    t = await createTestApp();
    const b = await signedIn();
    const cookie = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { cookie, origin: TEST_ORIGIN },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].code).toBe('CSRF_TOKEN_MISMATCH');
    expect(await telegramRow((await person()).email)).toBeUndefined();
  });
});

describe('npm run admin -- telegram:start', () => {
  it('links the chat as the bot would', async () => {
    t = await createTestApp();
    // The seeded buyer, whom the command names.
    const b = await signedIn('buyer@example.com');
    const token = await subscribe(b);
    expect(await telegramCommands(t.db).start(token, '555')).toBe(
      'Telegram chat 555 linked to buyer@example.com (buyer).',
    );
    expect(await subscribed(b)).toBe(true);
    await expect(telegramCommands(t.db).start(token, '555')).rejects.toThrow(CommandError);
  });
});

describe('TELEGRAM_BOT_NAME', () => {
  it('defaults to CoinfairBot and must be a bot username', () => {
    expect(readConfig({}).TELEGRAM_BOT_NAME).toBe('CoinfairBot');
    expect(readConfig({ TELEGRAM_BOT_NAME: 'Acme_P2P_Bot' }).TELEGRAM_BOT_NAME).toBe('Acme_P2P_Bot');
    for (const bad of ['', 'Acme', 'has space bot', 'CoinfairBot?x=1', `${'a'.repeat(30)}bot`]) {
      expect(() => readConfig({ TELEGRAM_BOT_NAME: bad })).toThrow(/TELEGRAM_BOT_NAME/);
    }
  });
});
