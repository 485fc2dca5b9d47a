import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, requestContext, signedIn } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { pageNumber, UsernameParam } from './feedback.ts';

// Public profiles and what one person thinks of another (paths the spec leaves open,
// docs/decisions/074-feedback-list-profile-trust-past-trades.md): GET /rest/v1/users/{username}/profile, POST /rest/v1/users/{username}/trust;
// and the person's past trades (spec section 7): GET /rest/v1/users/{username}/past-trades.

const TrustBody = v.object({ kind: v.picklist(['trusted', 'blocked', 'none'], 'must be trusted, blocked or none') });
const PastTradesQuery = v.object({
  page: pageNumber(),
  status: v.optional(
    v.picklist(['all', 'successful', 'cancelled', 'disputed'], 'must be all, successful, cancelled or disputed'),
    'all',
  ),
  type: v.optional(v.picklist(['bought', 'sold', 'all'], 'must be bought, sold or all'), 'all'),
});

export function profileRoutes(services: Services) {
  const { profiles } = services;
  return new Hono<AppEnv>()
    .use('/users/:username/trust', signedIn)
    .use('/users/:username/past-trades', signedIn)
    .get('/users/:username/profile', validate('param', UsernameParam), async (c) =>
      c.json({
        data: await profiles.profile(requestContext(c), {
          username: c.req.valid('param').username,
          locale: requestLocale(c),
        }),
      }),
    )
    .post('/users/:username/trust', validate('param', UsernameParam), validate('json', TrustBody), async (c) =>
      c.json({
        data: await profiles.setTrust(personContextOf(c), {
          username: c.req.valid('param').username,
          kind: c.req.valid('json').kind,
        }),
      }),
    )
    .get(
      '/users/:username/past-trades',
      validate('param', UsernameParam),
      validate('query', PastTradesQuery),
      async (c) => {
        const ctx = personContextOf(c);
        const q = c.req.valid('query');
        return c.json(
          await profiles.pastTrades(ctx, {
            username: c.req.valid('param').username,
            page: q.page,
            status: q.status,
            type: q.type,
          }),
        );
      },
    );
}
