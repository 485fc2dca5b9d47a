import { Hono } from 'hono';
import * as v from 'valibot';
import { REFERRAL_SORTS, type ReferralFilters, SORT_DIRECTIONS } from '../../src/lib/shared/affiliates.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { idempotencyKey, validate, yesNo } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// The affiliate programme (spec sections 2, 3 and 7; issue 20; docs/affiliates.md):
//   GET  /rest/v1/users/{username}/referrals   page, sortBy, sortDir, filters[active|traded|from|to]
//   GET  /rest/v1/users/{id}/referrals/tier2   page: the people tier-1 referral {id} (usr_…) brought
//   GET  /rest/v1/affiliates/summary           the link, counts, earnings and balance
//   POST /rest/v1/affiliates/join              take the affiliate role
//   POST /rest/v1/affiliates/payout            idempotency_key: earnings to the wallet, once per key
// Only the affiliate and administrators read referrals; anyone else gets 404.

const page = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, 'must be a page number'),
    v.transform(Number),
    v.minValue(1, 'must be a page number'),
  ),
  '1',
);
/** Whether `YYYY-MM-DD` names a day that exists: Date.parse alone takes 2026-02-30 as 2 March. */
const isDay = (value: string) => {
  const at = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().startsWith(value);
};
const day = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD'),
    v.check(isDay, 'must be a date as YYYY-MM-DD'),
  ),
);

const ReferralsQuery = v.pipe(
  v.object({
    page,
    sortBy: v.optional(v.picklist(REFERRAL_SORTS, `must be one of ${REFERRAL_SORTS.join(', ')}`), 'registered'),
    sortDir: v.optional(v.picklist(SORT_DIRECTIONS, 'must be up or down'), 'down'),
    'filters[active]': v.optional(yesNo),
    'filters[traded]': v.optional(yesNo),
    'filters[from]': day,
    'filters[to]': day,
  }),
  v.forward(
    v.check(
      (query) => !query['filters[from]'] || !query['filters[to]'] || query['filters[from]'] <= query['filters[to]'],
      'must not be before filters[from]',
    ),
    ['filters[to]'],
  ),
);
const UsernameParam = v.object({ username: v.pipe(v.string(), v.maxLength(100, 'must be a username')) });
const Tier2Param = v.object({ id: v.pipe(v.string(), v.regex(/^usr_[0-9A-Za-z]{1,40}$/, 'must be a user id')) });
const Tier2Query = v.object({ page });
const PayoutBody = v.object({ idempotency_key: idempotencyKey });

type Query = v.InferOutput<typeof ReferralsQuery>;

/** The filters that were given, as the service and `meta.filters` name them. */
const filtersOf = (query: Query): ReferralFilters => ({
  ...(query['filters[active]'] !== undefined ? { active: query['filters[active]'] } : {}),
  ...(query['filters[traded]'] !== undefined ? { traded: query['filters[traded]'] } : {}),
  ...(query['filters[from]'] ? { from: query['filters[from]'] } : {}),
  ...(query['filters[to]'] ? { to: query['filters[to]'] } : {}),
});

export function affiliateRoutes(services: Services) {
  const { affiliates } = services;
  return new Hono<AppEnv>()
    .use('/rest/v1/users/:username/referrals', signedIn)
    .use('/rest/v1/users/:id/referrals/tier2', signedIn)
    .use('/rest/v1/affiliates/*', signedIn)
    .get(
      '/rest/v1/users/:username/referrals',
      validate('param', UsernameParam),
      validate('query', ReferralsQuery),
      async (c) => {
        const query = c.req.valid('query');
        const { data, meta } = await affiliates.referrals(personContextOf(c), {
          username: c.req.valid('param').username,
          page: query.page,
          sortBy: query.sortBy,
          sortDir: query.sortDir,
          filters: filtersOf(query),
        });
        return c.json({ data, meta });
      },
    )
    .get(
      '/rest/v1/users/:id/referrals/tier2',
      validate('param', Tier2Param),
      validate('query', Tier2Query),
      async (c) => {
        const { data, meta } = await affiliates.tier2(personContextOf(c), {
          id: c.req.valid('param').id,
          page: c.req.valid('query').page,
        });
        return c.json({ data, meta });
      },
    )
    .get('/rest/v1/affiliates/summary', async (c) => c.json({ data: await affiliates.summary(personContextOf(c)) }))
    .post('/rest/v1/affiliates/join', async (c) => c.json({ data: await affiliates.join(personContextOf(c)) }))
    .post('/rest/v1/affiliates/payout', validate('json', PayoutBody), async (c) => {
      const { idempotency_key: idempotencyKey } = c.req.valid('json');
      return c.json({ data: await affiliates.payOut(personContextOf(c), { idempotencyKey }) });
    });
}
