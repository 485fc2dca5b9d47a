import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, clientInfo, personContextOf, requireAuth, setSessionCookies } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { AppError } from '../services/errors.ts';
import { VENDOR_TERMS_ACTIONS } from '../services/settings/vendor-terms.ts';

// POST /vendor/handle-vendor-terms (spec section 7): form-encoded `vendor_terms_action`, answered
// with `{ status, message }` rather than the `{ data }` envelope, as the spec's modal reads it.

const VendorTermsForm = v.object({
  vendor_terms_action: v.picklist(VENDOR_TERMS_ACTIONS, `must be one of: ${VENDOR_TERMS_ACTIONS.join(', ')}`),
});

const FORM_TYPE = 'application/x-www-form-urlencoded';

export function vendorRoutes(
  services: Services,
  { secureCookies, trustProxy }: { secureCookies: boolean; trustProxy: boolean },
) {
  const { vendorTerms } = services;
  return new Hono<AppEnv>().post(
    '/handle-vendor-terms',
    async (c, next) => {
      requireAuth(c);
      // Hono's form validator silently reads any other body as empty; say what is expected instead.
      const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== FORM_TYPE && type !== 'multipart/form-data') {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the form as ${FORM_TYPE}.`);
      }
      await next();
    },
    validate('form', VendorTermsForm),
    async (c) => {
      const result = await vendorTerms.decide(personContextOf(c), {
        action: c.req.valid('form').vendor_terms_action,
        client: clientInfo(c, trustProxy),
      });
      setSessionCookies(c, result.token, result.session, secureCookies);
      return c.json({ status: 'success', message: result.message });
    },
  );
}
