import type { FiatAllowance, VerificationStatusView } from '../../../src/lib/shared/views/verification.ts';
import { checkView, currentDocuments, userOf } from './documents.ts';
import { allowanceOf, LIMIT_WINDOW_MS, ladder, levelOf, type TradeAllowance, type VerifiedSteps } from './levels.ts';
import type { VerificationRepository } from './repository.ts';
import type { VerificationDeps } from './types.ts';

// A person's verification from one look at their rows: steps, level, allowance and checks.

export type { FiatAllowance };

type Parts = Pick<VerificationDeps, 'repo' | 'usedVolumeUsdCents' | 'now'>;

export const stepsOf = (
  repo: VerificationRepository,
  user: NonNullable<ReturnType<VerificationRepository['userById']>>,
): VerifiedSteps => ({
  email: user.isEmailVerified,
  phone: repo.isPhoneVerified(user.id),
  identity: user.idVerifiedAt !== null,
  address: user.addressVerifiedAt !== null,
});

export const allowanceFor = ({ usedVolumeUsdCents, now }: Parts, userId: number, level: number): TradeAllowance =>
  allowanceOf(level, usedVolumeUsdCents(userId, now() - LIMIT_WINDOW_MS));

/** What a person may still trade in the rolling 30 days, in US cents. */
export const tradeAllowanceOf = (parts: Parts, userId: number): TradeAllowance =>
  allowanceFor(parts, userId, levelOf(stepsOf(parts.repo, userOf(parts.repo, userId))));

/** US cents in `currency`, rounded down to its cents; US dollars when the rate is unknown. */
export const toFiat = ({ fiatPerUsd }: Pick<VerificationDeps, 'fiatPerUsd'>, cents: number, currency: string) =>
  Math.floor(cents * (fiatPerUsd(currency) ?? 1)) / 100;

export function inFiat(
  deps: Pick<VerificationDeps, 'fiatPerUsd'>,
  allowance: TradeAllowance,
  wanted: string,
): FiatAllowance {
  const currency = deps.fiatPerUsd(wanted) === undefined ? 'USD' : wanted;
  return {
    currency,
    limit: toFiat(deps, allowance.limitUsdCents, currency),
    used: toFiat(deps, allowance.usedUsdCents, currency),
    unused: toFiat(deps, allowance.unusedUsdCents, currency),
  };
}

/** Everything the page and the current user read, from one look at the person's rows. */
export function summaryOf(parts: Parts, userId: number) {
  const { repo } = parts;
  const user = userOf(repo, userId);
  const steps = stepsOf(repo, user);
  const level = levelOf(steps);
  const current = currentDocuments(repo, userId);
  const allowance = allowanceFor(parts, userId, level);
  const currency = repo.currencyCodeOf(user.currencyId) ?? 'USD';
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
export function statusOf(deps: VerificationDeps, userId: number): VerificationStatusView {
  const { steps, level, allowance, currency, identity, address } = summaryOf(deps, userId);
  const fiat = inFiat(deps, allowance, currency);
  return {
    level,
    steps,
    allowance: { ...allowance, ...fiat },
    levels: ladder().map((rung) => ({ ...rung, limit: toFiat(deps, rung.limitUsdCents, fiat.currency) })),
    identity,
    address,
  };
}
