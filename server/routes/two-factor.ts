import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, clientInfo, personContextOf, setSessionCookies } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import type { PersonContext } from '../services/context.ts';

// The signed-in person's second factor, under /rest/v1/users/2fa (paths the spec leaves open;
// docs/decisions/021-two-factor-authentication-totp.md). Turning it on or off changes what the session is worth, so both answer
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
  const rotateSession = async (c: Context<AppEnv>, ctx: PersonContext) => {
    const { token, session } = await sessions.rotate(ctx, { client: clientInfo(c, trustProxy) });
    setSessionCookies(c, token, session, secureCookies);
  };

  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ data: await twoFactor.status(personContextOf(c)) }))
    .post('/setup', async (c) => c.json({ data: await twoFactor.setup(personContextOf(c)) }))
    .post('/confirm', validate('json', CodeBody), async (c) => {
      const ctx = personContextOf(c);
      const { recoveryCodes } = await twoFactor.confirm(ctx, { code: c.req.valid('json').code });
      await rotateSession(c, ctx);
      return c.json({ data: { ...(await twoFactor.status(ctx)), recoveryCodes } });
    })
    .post('/disable', validate('json', CodeBody), async (c) => {
      const ctx = personContextOf(c);
      const status = await twoFactor.disable(ctx, { code: c.req.valid('json').code });
      await rotateSession(c, ctx);
      return c.json({ data: status });
    })
    .post('/purposes', validate('json', PurposesBody), async (c) => {
      const { code, ...purposes } = c.req.valid('json');
      return c.json({ data: await twoFactor.updatePurposes(personContextOf(c), { purposes, code }) });
    });
}
