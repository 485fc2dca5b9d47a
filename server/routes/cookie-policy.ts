import { Hono } from 'hono';
import * as v from 'valibot';
import {
  COOKIE_SETTINGS_NAME,
  type CookieCategory,
  cookieCategories,
  cookieSettingsHeader,
  parseCookieSettings,
} from '../../src/lib/cookie-settings.ts';
import { readCookie } from '../http/cookies.ts';
import { validate } from '../http/validate.ts';

// GET and POST /rest/v1/cookie-policy (spec section 7) over the same cookie the static pages'
// banner writes, so a choice made in either place is the one both read.

const SettingsInput = v.object({
  settings: v.strictObject(
    Object.fromEntries(cookieCategories.map((c) => [c, v.optional(v.boolean('must be true or false'))])) as Record<
      CookieCategory,
      v.OptionalSchema<v.BooleanSchema<string>, undefined>
    >,
    'must contain only the known cookie categories',
  ),
});

export function cookiePolicyRoutes({ secureCookies }: { secureCookies: boolean }) {
  return new Hono()
    .get('/', (c) => {
      const settings = parseCookieSettings(readCookie(c.req.header('cookie'), COOKIE_SETTINGS_NAME));
      return c.json({ data: { settings } });
    })
    .post('/', validate('json', SettingsInput), (c) => {
      const current = parseCookieSettings(readCookie(c.req.header('cookie'), COOKIE_SETTINGS_NAME));
      const changes = c.req.valid('json').settings;
      const settings = { ...current };
      for (const category of cookieCategories) {
        const value = changes[category];
        if (value !== undefined) settings[category] = value;
      }
      c.header('Set-Cookie', cookieSettingsHeader(settings, secureCookies), { append: true });
      return c.json({ data: { settings } });
    });
}
