import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, requestContext } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Proof of liabilities (issue 24; docs/decisions/146-proof-of-liabilities.md):
//   GET /rest/v1/proof?limit=&before=   the published roots, newest first (public: the history page)
//   GET /rest/v1/proof/reserves         what the platform's addresses hold against the latest liabilities
//                                       (public: the proof-of-reserves page; decision 149)
//   GET /rest/v1/proof/me               the signed-in person's inclusion proofs in the latest publication,
//                                       which `node scripts/verify-proof.ts` checks offline

const MAX_LIMIT = 100;

const ListQuery = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(1, `must be between 1 and ${MAX_LIMIT}`),
      v.maxValue(MAX_LIMIT, `must be between 1 and ${MAX_LIMIT}`),
    ),
    '30',
  ),
  /** The id of the last publication of the previous page. */
  before: v.optional(v.pipe(v.string(), v.regex(/^pol_[0-9A-Za-z]{16}$/, 'must be a publication id'))),
});

export function proofRoutes(services: Services) {
  return new Hono<AppEnv>()
    .get('/rest/v1/proof', validate('query', ListQuery), async (c) => {
      const { limit, before } = c.req.valid('query');
      const data = await services.proof.list(requestContext(c), { limit, ...(before ? { before } : {}) });
      // The same for everyone, and new at most once a publication: shared caches may keep it a minute.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({ data, meta: { limit } });
    })
    .get('/rest/v1/proof/reserves', async (c) => {
      const data = await services.proof.reserves(requestContext(c));
      // The same for everyone; the service reads the chain at most once a minute, caches likewise.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({ data });
    })
    .get('/rest/v1/proof/me', async (c) => c.json({ data: await services.proof.mine(personContextOf(c)) }));
}
