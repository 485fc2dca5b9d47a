import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  type AppEnv,
  clearSessionCookies,
  clientInfo,
  personContextOf,
  requestContext,
  setSessionCookies,
  visitorContextOf,
} from '../http/auth.ts';
import { csrfSetCookie, newCsrfToken } from '../http/csrf.ts';
import { optionalText, text, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { personContext } from '../services/context.ts';

// Spec section 7, "Account and auth": register, login (both answer data.redirectTo), logout,
// the e-mail confirmation link, and the proof-of-work challenge their forms solve first.

/** Forms and clients send flags as true/false, 1/0 or "1"/"0" (spec: gold_terms 1|0 style). */
const flag = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist([0, 1]), v.picklist(['0', '1', 'true', 'false'])], 'must be true or false'),
    v.transform((value) => value === true || value === 1 || value === '1' || value === 'true'),
  ),
);
const challengeFields = {
  geetest_challenge: optionalText(200),
  geetest_validate: optionalText(200),
  geetest_seccode: optionalText(200),
};

const RegisterBody = v.object({
  email: text(320),
  password: text(1024),
  back: optionalText(2000),
  entry_point: optionalText(100),
  referral_code: optionalText(64),
  vendors_terms_accepted: flag,
  ...challengeFields,
});

const LoginBody = v.object({
  email: text(320),
  password: text(1024),
  back: optionalText(2000),
  /** The second factor's TOTP or recovery code, once the first answer asked for it. */
  code: optionalText(64),
  ...challengeFields,
});

/**
 * Read once by the next page's script (src/scripts/welcome.ts), which shows the welcome dialog
 * and clears it. Readable on purpose and meaningless to the server; gone after 10 minutes.
 */
export const WELCOME_COOKIE = 'welcome';
const welcomeCookie = (secure: boolean) =>
  `${WELCOME_COOKIE}=1; Path=/; Max-Age=600; SameSite=Lax${secure ? '; Secure' : ''}`;

export interface AuthRouteOptions {
  secureCookies: boolean;
  trustProxy: boolean;
}

export function authRoutes(services: Services, { secureCookies, trustProxy }: AuthRouteOptions) {
  const { accounts, challenge } = services;
  // The browser's new session cookie replaces the one it came with: end that one on the server
  // too, or every sign-in on one browser would leave a live session nobody holds.
  const endReplacedSession = async (c: Context<AppEnv>) => {
    const previous = c.get('auth');
    if (previous) await accounts.logout(personContext(previous));
  };

  return new Hono<AppEnv>()
    .get('/challenge', async (c) => c.json({ data: await challenge.issue(requestContext(c)) }))
    .post('/register', validate('json', RegisterBody), async (c) => {
      const result = await accounts.register(visitorContextOf(c), {
        ...c.req.valid('json'),
        client: clientInfo(c, trustProxy),
      });
      await endReplacedSession(c);
      setSessionCookies(c, result.token, result.session, secureCookies);
      c.header('Set-Cookie', welcomeCookie(secureCookies), { append: true });
      return c.json({ data: { redirectTo: result.redirectTo } }, 201);
    })
    .post('/login', validate('json', LoginBody), async (c) => {
      const result = await accounts.login(visitorContextOf(c), {
        ...c.req.valid('json'),
        client: clientInfo(c, trustProxy),
      });
      await endReplacedSession(c);
      setSessionCookies(c, result.token, result.session, secureCookies);
      return c.json({
        data: { redirectTo: result.redirectTo },
        ...(result.compromised ? { meta: { compromised: true } } : {}),
      });
    })
    .post('/logout', async (c) => {
      await accounts.logout(personContextOf(c));
      clearSessionCookies(c, secureCookies);
      c.header('Set-Cookie', csrfSetCookie(newCsrfToken(), secureCookies), { append: true });
      return c.json({ data: { redirectTo: '/' } });
    })
    .post('/resend-verification', async (c) => {
      const ctx = personContextOf(c);
      await accounts.resendVerification(ctx);
      return c.json({ data: { sent: !ctx.auth.user.isEmailVerified } });
    });
}

/** GET /auth/verify-email?token=…: the link in the e-mail; lands on a page either way. */
export function emailLinkRoutes(services: Services) {
  return new Hono<AppEnv>().get('/verify-email', async (c) => {
    const token = c.req.query('token') ?? '';
    try {
      await services.accounts.verifyEmail(requestContext(c), { token });
      return c.redirect('/?email_verified=1', 303);
    } catch {
      return c.redirect('/?email_verified=0', 303);
    }
  });
}
