import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, type AuthState, clientInfo, requireAuth, setSessionCookies } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// The signed-in person's second factor, under /rest/v1/users/2fa (paths the spec leaves open;
// docs/decisions.md). Turning it on or off changes what the session is worth, so both answer
// with a new session and end every other one, as a sign-in would.

const Code = v.pipe(v.string('must be text'), v.trim(), v.minLength(1, 'is required'), v.maxLength(64, 'is too long'));
const CodeBody = v.object({ code: Code });
const PurposesBody = v.object({
  login: v.boolean('must be true or false'),
  sendout: v.boolean('must be true or false'),
  release: v.boolean('must be true or false'),
  code: Code,
});

export interface TwoFactorRouteOptions {
  secureCookies: boolean;
  trustProxy: boolean;
}

export function twoFactorRoutes(services: Services, { secureCookies, trustProxy }: TwoFactorRouteOptions) {
  const { twoFactor, sessions } = services;

  /** Ends every session of the user, this one included, and signs this browser in afresh. */
  const rotateSession = (c: Context<AppEnv>, auth: AuthState) => {
    sessions.invalidateAll(auth.user.id);
    const { token, session } = sessions.create(auth.user.id, clientInfo(c, trustProxy));
    setSessionCookies(c, token, session, secureCookies);
  };

  return new Hono<AppEnv>()
    .get('/', (c) => c.json({ data: twoFactor.status(requireAuth(c).user) }))
    .post('/setup', (c) => c.json({ data: twoFactor.setup(requireAuth(c).user) }))
    .post('/confirm', validate('json', CodeBody), (c) => {
      const auth = requireAuth(c);
      const { recoveryCodes } = twoFactor.confirm(auth.user, c.req.valid('json').code);
      rotateSession(c, auth);
      return c.json({ data: { ...twoFactor.status(auth.user), recoveryCodes } });
    })
    .post('/disable', validate('json', CodeBody), (c) => {
      const auth = requireAuth(c);
      const status = twoFactor.disable(auth.user, c.req.valid('json').code);
      rotateSession(c, auth);
      return c.json({ data: status });
    })
    .post('/purposes', validate('json', PurposesBody), (c) => {
      const { code, ...purposes } = c.req.valid('json');
      return c.json({ data: twoFactor.updatePurposes(requireAuth(c).user, purposes, code) });
    });
}
