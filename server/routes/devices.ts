import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, requestContext } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// GET /rest/v1/castle/review-device/{token} and POST /rest/v1/castle/review-device (spec
// section 7). No session is needed: the token from the e-mail is the credential, and the person
// may open it on another device than the one in question. CSRF still applies to the POST (app
// middleware), so another site cannot report a device with a token it saw.

const ReviewBody = v.object({
  isConfirmed: v.boolean('must be true or false'),
  deviceToken: v.pipe(v.string('must be text'), v.maxLength(128, 'must be at most 128 characters')),
});

export function deviceReviewRoutes(services: Services) {
  const { devices } = services;
  return new Hono<AppEnv>()
    .get('/review-device/:token', async (c) =>
      c.json({
        data: await devices.review(requestContext(c), { token: c.req.param('token'), locale: requestLocale(c) }),
      }),
    )
    .post('/review-device', validate('json', ReviewBody), async (c) => {
      const { isConfirmed, deviceToken } = c.req.valid('json');
      const { redirectTo } = await devices.decide(requestContext(c), { token: deviceToken, isConfirmed });
      return c.json({ data: { redirectTo } });
    });
}
