import {
  ACTIVE_DAYS,
  REFERRALS_PAGE_SIZE,
  type ReferralFilters,
  type ReferralSort,
  type SortDirection,
  TIER2_PAGE_SIZE,
} from '../../../src/lib/shared/affiliates.ts';
import type { ReferralsPage } from '../../../src/lib/shared/views/affiliates.ts';
import type { PersonContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { AffiliatesDeps } from './deps.ts';
import type { PersonRow } from './repository.ts';
import { DAY_MS, referralView } from './views.ts';

// The referral table (spec sections 2 and 7): an affiliate's tier-1 referrals, paged, sorted and
// filtered, and the tier-2 list under each. Only the affiliate and administrators read them;
// anyone else, like an unknown name, gets 404, so the endpoint does not tell who exists.

export interface ReferralsInput {
  username: string;
  page: number;
  sortBy: ReferralSort;
  sortDir: SortDirection;
  filters: ReferralFilters;
}

const isAdmin = (ctx: PersonContext) => ctx.auth.user.role === 'admin';

/** The person whose referrals may be read by this reader, or 404. */
function readable(person: PersonRow | undefined, ctx: PersonContext, field: string): PersonRow {
  if (!person || (person.id !== ctx.auth.user.id && !isAdmin(ctx))) throw notFound('Referrals', field);
  return person;
}

/** `YYYY-MM-DD` as the first millisecond of that UTC day. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

async function page(
  { repo, now }: AffiliatesDeps,
  query: { referrerId: number; affiliateId: number; tier: 1 | 2; pageSize: number },
  input: Omit<ReferralsInput, 'username'>,
): Promise<ReferralsPage> {
  const { filters, sortBy, sortDir } = input;
  const at = now();
  const pageNumber = Math.max(1, input.page);
  const { rows, total } = await repo.referrals({
    referrerId: query.referrerId,
    affiliateId: query.affiliateId,
    tier: query.tier,
    activeSince: filters.active ? at - ACTIVE_DAYS * DAY_MS : 0,
    minTrades: filters.traded ? 1 : 0,
    registeredFrom: filters.from ? dayStart(filters.from) : 0,
    registeredBefore: filters.to ? dayStart(filters.to) + DAY_MS : Number.MAX_SAFE_INTEGER,
    sortBy,
    sortDir,
    limit: query.pageSize,
    offset: (pageNumber - 1) * query.pageSize,
  });
  return {
    data: rows.map((row) => referralView(row, at)),
    meta: {
      page: pageNumber,
      pageSize: query.pageSize,
      total,
      totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
      sortBy,
      sortDir,
      filters,
    },
  };
}

/** GET /rest/v1/users/{username}/referrals: the affiliate's tier-1 referrals. */
export async function tier1Referrals(
  deps: AffiliatesDeps,
  ctx: PersonContext,
  { username, ...input }: ReferralsInput,
): Promise<ReferralsPage> {
  const affiliate = readable(await deps.repo.personByUsername(username), ctx, 'username');
  const ids = { referrerId: affiliate.id, affiliateId: affiliate.id, tier: 1 as const, pageSize: REFERRALS_PAGE_SIZE };
  return page(deps, ids, input);
}

/**
 * GET /rest/v1/users/{id}/referrals/tier2: the people tier-1 referral `id` brought, with what
 * their trades earned the affiliate; for that affiliate (the referral's referrer) only.
 */
export async function tier2Referrals(
  deps: AffiliatesDeps,
  ctx: PersonContext,
  { id, page: pageNumber }: { id: string; page: number },
): Promise<ReferralsPage> {
  const referral = await deps.repo.personByPublicId(id);
  const affiliateId = referral?.referredById ?? null;
  const affiliate = readable(affiliateId === null ? undefined : await deps.repo.personById(affiliateId), ctx, 'id');
  const ids = {
    referrerId: (referral as PersonRow).id,
    affiliateId: affiliate.id,
    tier: 2 as const,
    pageSize: TIER2_PAGE_SIZE,
  };
  return page(deps, ids, { page: pageNumber, sortBy: 'registered', sortDir: 'down', filters: {} });
}
