import { Hono } from 'hono';
import * as v from 'valibot';
import type { Locale } from '../../src/lib/shared/i18n/locales.ts';
import { type AppEnv, personContextOf, requestContext } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import type { PersonContext } from '../services/context.ts';

// The signed-in person: spec section 7, GET /users/me, /users/current_user, POST /users/set-username.

const SetUsernameBody = v.object({
  username: v.pipe(v.string('must be text'), v.maxLength(100, 'must be at most 100 characters')),
});

export function usersRoutes(services: Services) {
  const { accounts, verification } = services;
  const currentUser = async (ctx: PersonContext, locale: Locale) =>
    accounts.currentUser(ctx, { locale, verification: await verification.currentUserFlags(ctx) });
  return (
    new Hono<AppEnv>()
      .get('/me', async (c) => {
        return c.json({ data: await currentUser(personContextOf(c), requestLocale(c)) });
      })
      // Pages ask this without knowing whether anyone is signed in: visitors get isLogged false, not 401.
      .get('/current_user', async (c) => {
        const locale = requestLocale(c);
        return c.json({
          data: c.get('auth')
            ? await currentUser(personContextOf(c), locale)
            : await accounts.visitor(requestContext(c), { locale }),
        });
      })
      .post('/set-username', validate('json', SetUsernameBody), async (c) => {
        const user = await accounts.setUsername(personContextOf(c), { username: c.req.valid('json').username });
        return c.json({ data: { username: user.username, isUsernameChanged: true } });
      })
  );
}
