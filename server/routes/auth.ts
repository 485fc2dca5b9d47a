import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, clientInfo, requireAuth, sessionClearCookie, setSessionCookies } from '../http/auth.ts';
import { csrfSetCookie, newCsrfToken } from '../http/csrf.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Spec section 7, "Account and auth": register, login (both answer data.redirectTo), logout,
// the e-mail confirmation link, and the proof-of-work challenge their forms solve first.

const text = (max: number) => v.pipe(v.string('must be text'), v.maxLength(max, `must be at most ${max} characters`));
const optionalText = (max: number) => v.optional(text(max));
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

export interface AuthRouteOptions {
  secureCookies: boolean;
  trustProxy: boolean;
}

export function authRoutes(services: Services, { secureCookies, trustProxy }: AuthRouteOptions) {
  const { accounts, challenge } = services;

  return new Hono<AppEnv>()
    .get('/challenge', (c) => c.json({ data: challenge.issue() }))
    .post('/register', validate('json', RegisterBody), async (c) => {
      const result = await accounts.register(c.req.valid('json'), clientInfo(c, trustProxy));
      setSessionCookies(c, result.token, result.session, secureCookies);
      return c.json({ data: { redirectTo: result.redirectTo } }, 201);
    })
    .post('/login', validate('json', LoginBody), async (c) => {
      const result = await accounts.login(c.req.valid('json'), clientInfo(c, trustProxy));
      setSessionCookies(c, result.token, result.session, secureCookies);
      return c.json({
        data: { redirectTo: result.redirectTo },
        ...(result.compromised ? { meta: { compromised: true } } : {}),
      });
    })
    .post('/logout', (c) => {
      const auth = requireAuth(c);
      accounts.logout(auth.session.id);
      c.header('Set-Cookie', sessionClearCookie(secureCookies), { append: true });
      c.header('Set-Cookie', csrfSetCookie(newCsrfToken(), secureCookies), { append: true });
      return c.json({ data: { redirectTo: '/' } });
    })
    .post('/resend-verification', async (c) => {
      const auth = requireAuth(c);
      await accounts.resendVerification(auth.user, clientInfo(c, trustProxy));
      return c.json({ data: { sent: !auth.user.isEmailVerified } });
    });
}

/** GET /auth/verify-email?token=…: the link in the e-mail; lands on a page either way. */
export function emailLinkRoutes(services: Services) {
  return new Hono<AppEnv>().get('/verify-email', (c) => {
    const token = c.req.query('token') ?? '';
    try {
      services.accounts.verifyEmail(token);
      return c.redirect('/?email_verified=1', 303);
    } catch {
      return c.redirect('/?email_verified=0', 303);
    }
  });
}
