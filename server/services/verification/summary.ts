import type { FiatAllowance, VerificationStatusView } from '../../../src/lib/shared/views/verification.ts';
import { checkView, currentDocuments, userOf } from './documents.ts';
import { allowanceOf, LIMIT_WINDOW_MS, ladder, levelOf, type TradeAllowance, type VerifiedSteps } from './levels.ts';
import type { VerificationRepository } from './repository.ts';
import type { VerificationDeps } from './types.ts';

// A person's verification from one look at their rows: steps, level, allowance and checks.

export type { FiatAllowance };

type Parts = Pick<VerificationDeps, 'repo' | 'usedVolumeUsdCents' | 'now'>;

/** The steps of `user`, whose phone is verified or not. */
const stepsFrom = (user: VerificationUser, phone: boolean): VerifiedSteps => ({
  email: user.isEmailVerified,
  phone,
  identity: user.idVerifiedAt !== null,
  address: user.addressVerifiedAt !== null,
});

export const stepsOf = async (repo: VerificationRepository, user: VerificationUser): Promise<VerifiedSteps> =>
  stepsFrom(user, await repo.isPhoneVerified(user.id));

export const allowanceFor = async (
  { usedVolumeUsdCents, now }: Parts,
  userId: number,
  level: number,
): Promise<TradeAllowance> => allowanceOf(level, await usedVolumeUsdCents(userId, now() - LIMIT_WINDOW_MS));

/** What a person may still trade in the rolling 30 days, in US cents. */
export const tradeAllowanceOf = async (parts: Parts, userId: number): Promise<TradeAllowance> =>
  allowanceFor(parts, userId, levelOf(await stepsOf(parts.repo, await userOf(parts.repo, userId))));

/** Units of `currency` per US dollar; 1 (US dollars) when the rate is unknown. */
const perUsdOf = async ({ fiatPerUsd }: Pick<VerificationDeps, 'fiatPerUsd'>, currency: string) =>
  (await fiatPerUsd(currency)) ?? 1;

/** US cents at `perUsd` units per dollar, rounded down to the currency's cents. */
export const toFiat = (perUsd: number, cents: number) => Math.floor(cents * perUsd) / 100;

/** The allowance in `wanted`; in US dollars when its rate is unknown. */
export async function inFiat(
  deps: Pick<VerificationDeps, 'fiatPerUsd'>,
  allowance: TradeAllowance,
  wanted: string,
): Promise<FiatAllowance & { perUsd: number }> {
  const currency = (await deps.fiatPerUsd(wanted)) === undefined ? 'USD' : wanted;
  const perUsd = await perUsdOf(deps, currency);
  return {
    currency,
    limit: toFiat(perUsd, allowance.limitUsdCents),
    used: toFiat(perUsd, allowance.usedUsdCents),
    unused: toFiat(perUsd, allowance.unusedUsdCents),
    perUsd,
  };
}

/**
 * What the session read already holds (server/services/accounts: the user row with its profile),
 * so a signed-in request does not read the user, phone and currency a second time.
 */
export interface KnownPerson {
  user: VerificationUser;
  isPhoneVerified: boolean;
  currencyCode: string | null;
}

type VerificationUser = NonNullable<Awaited<ReturnType<VerificationRepository['userById']>>>;

/** Everything the page and the current user read, from one look at the person's rows. */
export async function summaryOf(parts: Parts, userId: number, known?: KnownPerson) {
  const { repo } = parts;
  const user = known?.user ?? (await userOf(repo, userId));
  const steps = known ? stepsFrom(user, known.isPhoneVerified) : await stepsOf(repo, user);
  const level = levelOf(steps);
  const current = await currentDocuments(repo, userId);
  const allowance = await allowanceFor(parts, userId, level);
  const currency = (known ? known.currencyCode : await repo.currencyCodeOf(user.currencyId)) ?? 'USD';
  return {
    user,
    steps,
    level,
    allowance,
    currency,
    identity: checkView('identity', steps.identity, current),
    address: checkView('address', steps.address, current),
  };
}

/** The verification page's data: level, allowance in the person's currency, ladder, checks. */
export async function statusOf(deps: VerificationDeps, userId: number): Promise<VerificationStatusView> {
  const { steps, level, allowance, currency, identity, address } = await summaryOf(deps, userId);
  const { perUsd, ...fiat } = await inFiat(deps, allowance, currency);
  return {
    level,
    steps,
    allowance: { ...allowance, ...fiat },
    levels: ladder().map((rung) => ({ ...rung, limit: toFiat(perUsd, rung.limitUsdCents) })),
    identity,
    address,
  };
}
