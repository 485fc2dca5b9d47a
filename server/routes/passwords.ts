import { Hono } from 'hono';
import * as v from 'valibot';
import {
  type AppEnv,
  clearSessionCookies,
  clientInfo,
  personContextOf,
  requestContext,
  setSessionCookies,
} from '../http/auth.ts';
import { csrfSetCookie, newCsrfToken } from '../http/csrf.ts';
import { optionalText, text, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Password change (signed in) and reset (a mailed link); paths the spec leaves open, full paths
// here (docs/decisions/028-password-change-and-reset.md, "Password change and reset"). CSRF applies to every POST (app
// middleware), so another site cannot submit these forms with a link it saw.

// Passwords are bounded loosely here: the policy's own limit (128) answers with its own message.
const ChangePasswordBody = v.object({
  currentPassword: text(1024),
  newPassword: text(1024),
  code: optionalText(64),
});

const ForgotPasswordBody = v.object({
  email: text(320),
  geetest_challenge: optionalText(200),
  geetest_validate: optionalText(200),
  geetest_seccode: optionalText(200),
});

const ResetPasswordBody = v.object({
  token: text(200),
  password: text(1024),
  code: optionalText(64),
});

export interface PasswordRouteOptions {
  secureCookies: boolean;
  trustProxy: boolean;
}

export function passwordRoutes(services: Services, { secureCookies, trustProxy }: PasswordRouteOptions) {
  const { passwords } = services;

  return (
    new Hono<AppEnv>()
      // A privilege change: every session ends and this browser gets a new one (as 2FA on/off).
      .post('/rest/v1/users/change-password', validate('json', ChangePasswordBody), async (c) => {
        const { token, session } = await passwords.change(personContextOf(c), {
          ...c.req.valid('json'),
          client: clientInfo(c, trustProxy),
        });
        setSessionCookies(c, token, session, secureCookies);
        return c.json({ data: { changed: true } });
      })
      .post('/rest/v1/auth/forgot-password', validate('json', ForgotPasswordBody), async (c) => {
        await passwords.requestReset(requestContext(c), { ...c.req.valid('json'), client: clientInfo(c, trustProxy) });
        return c.json({ data: { sent: true } });
      })
      .get('/rest/v1/auth/reset-password/:token', async (c) =>
        c.json({ data: await passwords.inspectReset(requestContext(c), { token: c.req.param('token') }) }),
      )
      .post('/rest/v1/auth/reset-password', validate('json', ResetPasswordBody), async (c) => {
        const result = await passwords.reset(requestContext(c), {
          ...c.req.valid('json'),
          client: clientInfo(c, trustProxy),
        });
        // The reset ended this browser's session too when it was the same account: say so to it.
        if (c.get('auth')?.user.id === result.userId) {
          clearSessionCookies(c, secureCookies);
          c.header('Set-Cookie', csrfSetCookie(newCsrfToken(), secureCookies), { append: true });
        }
        return c.json({ data: { redirectTo: result.redirectTo } });
      })
  );
}
