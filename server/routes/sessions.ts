import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, clearSessionCookies, personContextOf, signedIn } from '../http/auth.ts';
import { csrfSetCookie, newCsrfToken } from '../http/csrf.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// The signed-in person's devices (sessions), under /rest/v1/users/sessions; paths the spec leaves
// open (docs/decisions/035-settings-screen.md, "Settings screen"). Ids are the sessions' public ids (`ses_…`), never
// the token or its hash. CSRF applies to the POSTs (app middleware).

const RevokeBody = v.object({
  id: v.pipe(v.string('must be text'), v.minLength(1, 'is required'), v.maxLength(64, 'is too long')),
});

export function sessionRoutes(services: Services, { secureCookies }: { secureCookies: boolean }) {
  const { sessions } = services;
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      return c.json({ data: await sessions.listDevices(personContextOf(c)) });
    })
    .post('/revoke', signedIn, validate('json', RevokeBody), async (c) => {
      const ctx = personContextOf(c);
      const { id } = c.req.valid('json');
      await sessions.revokeDevice(ctx, { id });
      // Signing this very browser out from its own list is a sign-out: say so to the browser.
      const current = id === ctx.auth.session.publicId;
      if (current) {
        clearSessionCookies(c, secureCookies);
        c.header('Set-Cookie', csrfSetCookie(newCsrfToken(), secureCookies), { append: true });
      }
      return c.json({ data: { revoked: true, current } });
    })
    .post('/revoke-others', async (c) => {
      return c.json({ data: { revoked: await sessions.invalidateOthers(personContextOf(c)) } });
    });
}
