import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, requireAuth } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { AppError } from '../services/errors.ts';

// GET and POST /rest/v1/users/settings (spec section 7: "POST /rest/v1/users/settings with
// profile values"). Mounted at /rest/v1/users beside the users router, kept apart so the
// account routes and the profile routes grow independently.

/** Clients send flags as true/false or 1/0 (the forms post checkboxes either way). */
const flag = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist([0, 1]), v.picklist(['0', '1', 'true', 'false'])], 'must be true or false'),
    v.transform((value) => value === true || value === 1 || value === '1' || value === 'true'),
  ),
);

// Unknown keys are dropped: the profile form posts everything it shows. The bio and the interval
// are checked by the service, which answers the spec's translation keys.
const SettingsBody = v.object({
  bio: v.optional(v.string('must be text')),
  notify_trade_messages_interval: v.optional(v.unknown()),
  soundNotifications: flag,
  notifySmsBitcoinsConfirmed: flag,
  notifySmsIncomingTrade: flag,
  emailSubscribed: flag,
  country_id: v.optional(v.pipe(v.number('must be a country id'), v.integer('must be a country id'))),
});

export function settingsRoutes(services: Services) {
  const { settings } = services;
  return (
    new Hono<AppEnv>()
      // Signed in first, so a visitor hears 401 whatever the body. Only this path: a `*` here
      // would also cover the users router's paths under the same prefix.
      .use('/settings', async (c, next) => {
        requireAuth(c);
        // Hono's JSON validator reads any other body as `{}`, which would save nothing and say 200.
        if (c.req.method === 'POST' && !/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the settings as application/json.');
        }
        await next();
      })
      .get('/settings', async (c) => c.json({ data: await settings.get(personContextOf(c)) }))
      .post('/settings', validate('json', SettingsBody), async (c) =>
        c.json({ data: await settings.update(personContextOf(c), c.req.valid('json')) }),
      )
  );
}
