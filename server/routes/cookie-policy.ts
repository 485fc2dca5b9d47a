import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  COOKIE_SETTINGS_NAME,
  type CookieCategory,
  type CookieSettings,
  cookieCategories,
  cookieSettingsHeader,
  parseCookieSettings,
} from '../../src/lib/shared/cookie-settings.ts';
import type { AppEnv } from '../http/auth.ts';
import { readCookie } from '../http/cookies.ts';
import { validate } from '../http/validate.ts';
import { type PersonContext, personContext } from '../services/context.ts';
import type { SettingsService } from '../services/settings/settings.ts';

// GET and POST /rest/v1/cookie-policy (spec section 7) over the same cookie the static pages'
// banner writes, so a choice made in either place is the one both read. Signed in, the choice is
// also kept with the account (`user_settings.cookie_settings`) and follows the person to other
// browsers; the stored choice wins over the cookie, which is only a fallback until one is saved.

const SettingsInput = v.object({
  settings: v.strictObject(
    Object.fromEntries(cookieCategories.map((c) => [c, v.optional(v.boolean('must be true or false'))])) as Record<
      CookieCategory,
      v.OptionalSchema<v.BooleanSchema<string>, undefined>
    >,
    'must contain only the known cookie categories',
  ),
});

export interface CookiePolicyOptions {
  secureCookies: boolean;
  /** Where signed-in people's choices are stored; without it, the cookie alone. */
  settings?: Pick<SettingsService, 'cookieSettings' | 'saveCookieSettings'>;
}

export function cookiePolicyRoutes({ secureCookies, settings }: CookiePolicyOptions) {
  const stored = async (ctx: PersonContext | undefined): Promise<CookieSettings | null> =>
    ctx && settings ? await settings.cookieSettings(ctx) : null;
  const personOf = (c: Context<AppEnv>): PersonContext | undefined => {
    const auth = c.get('auth');
    return auth ? personContext(auth) : undefined;
  };

  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const saved = await stored(personOf(c));
      const settings = saved ?? parseCookieSettings(readCookie(c.req.header('cookie'), COOKIE_SETTINGS_NAME));
      return c.json({ data: { settings } });
    })
    .post('/', validate('json', SettingsInput), async (c) => {
      const person = personOf(c);
      const current =
        (await stored(person)) ?? parseCookieSettings(readCookie(c.req.header('cookie'), COOKIE_SETTINGS_NAME));
      const changes = c.req.valid('json').settings;
      const next = { ...current };
      for (const category of cookieCategories) {
        const value = changes[category];
        if (value !== undefined) next[category] = value;
      }
      if (person) await settings?.saveCookieSettings(person, { settings: next });
      c.header('Set-Cookie', cookieSettingsHeader(next, secureCookies), { append: true });
      return c.json({ data: { settings: next } });
    });
}
