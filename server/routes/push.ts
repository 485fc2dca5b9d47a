import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { ChannelAuthorizer } from '../realtime/hub.ts';
import type { Services } from '../services/container.ts';
import { createPushAuthorizer, MAX_PUSH_CHANNELS } from '../services/notifications/push.ts';

// Spec section 7: POST /trade/push-authorize/{id}?camelCase=1 and POST
// /account/re-auth-push-subscription, both with `channels`; each answers the socket's `auth_key`.
// The authoriser is the hub's own, so a key never grants what the hub would refuse; the key names
// the asking session, so it grants nothing once that session ends (server/realtime/push-keys.ts).

const Channel = v.pipe(v.string('must be text'), v.regex(/^[a-z][A-Za-z0-9_:.-]{0,99}$/, 'must be channel names'));
const Channels = v.pipe(
  v.array(Channel, 'must be a list of channel names'),
  v.maxLength(MAX_PUSH_CHANNELS, `must name at most ${MAX_PUSH_CHANNELS} channels`),
);

const AuthorizeBody = v.optional(v.object({ channels: v.optional(Channels) }), {});
const RenewBody = v.object({ channels: v.pipe(Channels, v.minLength(1, 'must name at least one channel')) });
const Id = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z_]{6,40}$/, 'must be your id or a trade hash')) });

export function pushRoutes(services: Services, { authorize }: { authorize: ChannelAuthorizer }) {
  const push = createPushAuthorizer({ keys: services.pushKeys, authorize });
  return new Hono<AppEnv>()
    .post('/trade/push-authorize/:id', validate('param', Id), validate('json', AuthorizeBody), async (c) => {
      const { id } = c.req.valid('param');
      return c.json({ data: await push.authorize(personContextOf(c), { id, channels: c.req.valid('json').channels }) });
    })
    .post('/account/re-auth-push-subscription', validate('json', RenewBody), async (c) =>
      c.json({ data: await push.renew(personContextOf(c), { channels: c.req.valid('json').channels }) }),
    );
}
