import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { PHONE_INPUT_MAX_LENGTH } from '../services/phone/numbers.ts';

// Phone verification, spec section 7: POST /account/send-phone-code {phone, call} → {status,
// message}; POST /auth/send-phone-code and /auth/call-phone-code (payload {phone?}, see
// docs/decisions/023-phone-verification.md); POST /rest/v1/users/confirm-phone {phoneCode}; GET /rest/v1/users/reset-phone.

const Phone = v.pipe(
  v.string('must be text'),
  v.maxLength(PHONE_INPUT_MAX_LENGTH, `must be at most ${PHONE_INPUT_MAX_LENGTH} characters`),
);
/** `call` as JSON sends it, or as a form library might: true/false, 1/0, "true"/"false", "1"/"0". */
const CallFlag = v.pipe(
  v.union([v.boolean(), v.picklist([0, 1, '0', '1', 'true', 'false'])], 'must be true or false'),
  v.transform((value) => value === true || value === 1 || value === '1' || value === 'true'),
);

const AccountSendBody = v.object({ phone: Phone, call: v.optional(CallFlag, false) });
/** The number may be left out to send a new code to the number waiting for confirmation. */
const AuthSendBody = v.object({ phone: v.optional(Phone) });
const ConfirmBody = v.object({
  phoneCode: v.pipe(
    v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999_999))], 'must be the code'),
    // A number loses leading zeros on the way; the code always has six digits.
    v.transform((code) => (typeof code === 'number' ? String(code).padStart(6, '0') : code)),
    v.maxLength(20, 'must be at most 20 characters'),
  ),
});

export function phoneRoutes(services: Services) {
  const { phone } = services;
  return (
    new Hono<AppEnv>()
      .post('/account/send-phone-code', signedIn, validate('json', AccountSendBody), async (c) => {
        const body = c.req.valid('json');
        return c.json(
          await phone.sendCode(personContextOf(c), { phone: body.phone, channel: body.call ? 'call' : 'sms' }),
        );
      })
      .post('/auth/send-phone-code', signedIn, validate('json', AuthSendBody), async (c) => {
        return c.json(await phone.sendCode(personContextOf(c), { phone: c.req.valid('json').phone, channel: 'sms' }));
      })
      .post('/auth/call-phone-code', signedIn, validate('json', AuthSendBody), async (c) => {
        return c.json(await phone.sendCode(personContextOf(c), { phone: c.req.valid('json').phone, channel: 'call' }));
      })
      .post('/rest/v1/users/confirm-phone', signedIn, validate('json', ConfirmBody), async (c) => {
        const { phone: number } = await phone.confirm(personContextOf(c), { phoneCode: c.req.valid('json').phoneCode });
        return c.json({ data: { isPhoneVerified: true, phone: number } });
      })
      // A GET that changes state (the spec's shape): the CSRF middleware checks it like a POST
      // (STATE_CHANGING_GETS in server/http/csrf.ts).
      .get('/rest/v1/users/reset-phone', async (c) => {
        await phone.reset(personContextOf(c));
        return c.json({ data: { isPhoneVerified: false } });
      })
  );
}
