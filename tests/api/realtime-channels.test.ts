import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { authorizeChannel, personalChannel, sessionPrincipal } from '../../server/realtime/channels.ts';
import { systemContext } from '../../server/services/context.ts';
import { type StartedHub, startHub } from '../support/hub.ts';
import { createTestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';
import { openSocket } from '../support/ws-client.ts';

// A socket joins only its own personal channels; which user it is comes from the session cookie.

const t = await createTestApp();
const bus = createInProcessBus();
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

/** Some signed-in person: a fresh account and its session token. */
const user = async () => {
  const { id, publicId } = await createUser(t);
  return {
    id,
    public_id: publicId,
    token: (
      await t.services.sessions.create(systemContext('test'), {
        userId: id,
        client: { ip: '127.0.0.1', userAgent: 'test' },
      })
    ).token,
  };
};

const socket = (cookie?: string) => openSocket(url, cookie);

describe('personal channels', () => {
  it('lets a signed-in socket join its own channel and receive its events', async () => {
    const buyer = await user();
    const { ws, ask } = await socket(`session=${buyer.token}`);
    const channel = personalChannel('notifications', buyer.public_id);
    expect(await ask({ type: 'subscribe', channel })).toEqual({ type: 'subscribed', channel });
    const event = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    bus.publish(channel, { type: 'notification', payload: { id: 1 } });
    expect((await event).event).toEqual({ type: 'notification', payload: { id: 1 } });
    ws.close();
  });

  it("refuses another user's channel, and every personal channel to an anonymous socket", async () => {
    const buyer = await user();
    const vendor = await user();
    const signedIn = await socket(`session=${buyer.token}`);
    const theirs = personalChannel('telegram', vendor.public_id);
    expect(await signedIn.ask({ type: 'subscribe', channel: theirs })).toMatchObject({ code: 'CHANNEL_FORBIDDEN' });
    const anonymous = await socket();
    const mine = personalChannel('notifications', buyer.public_id);
    expect(await anonymous.ask({ type: 'subscribe', channel: mine })).toMatchObject({ code: 'CHANNEL_FORBIDDEN' });
    expect(await anonymous.ask({ type: 'subscribe', channel: 'rates' })).toEqual({
      type: 'subscribed',
      channel: 'rates',
    });
    const forged = await socket('session=not-a-real-token');
    expect(await forged.ask({ type: 'subscribe', channel: mine })).toMatchObject({ code: 'CHANNEL_FORBIDDEN' });
    for (const s of [signedIn, anonymous, forged]) s.ws.close();
  });
});
