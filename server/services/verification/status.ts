import type { VerificationStatusView } from '../../../src/lib/shared/views/verification.ts';
import type { PersonContext } from '../context.ts';
import { inFiat, statusOf, summaryOf } from './summary.ts';
import type { VerificationDeps } from './types.ts';

/** The verification page's data: level, allowance in the person's currency, ladder, checks. */
export function verificationStatus(deps: VerificationDeps, ctx: PersonContext): Promise<VerificationStatusView> {
  return statusOf(deps, ctx.auth.user.id);
}

/**
 * The current user's verification flags (spec section 3). `unusedTradingVolumeInFiatCurrency`
 * is in the person's currency, as its name says.
 */
export async function currentUserFlags(deps: VerificationDeps, ctx: PersonContext) {
  const { user, profile } = ctx.auth;
  // The session read brought the user, the phone and the currency: only documents and volume are read here.
  const { steps, level, allowance, currency, identity, address } = await summaryOf(deps, user.id, {
    user,
    isPhoneVerified: profile.phoneVerifiedAt != null,
    currencyCode: profile.currencyCode,
  });
  const nearLimit = allowance.limitUsdCents > 0 && allowance.unusedUsdCents < allowance.limitUsdCents * 0.2;
  const nextStep = allowance.next?.step;
  const nextCheck = nextStep === 'identity' ? identity : nextStep === 'address' ? address : null;
  return {
    isIdVerificationPending: !steps.identity && identity.status === 'pending',
    isDocumentVerified: identity.documents.id_front?.status === 'approved',
    isAddressVerified: steps.address,
    isAddressVerificationPending: !steps.address && address.status === 'pending',
    kycLevelCheck: { level, unusedTradingVolumeInFiatCurrency: (await inFiat(deps, allowance, currency)).unused },
    // The next step is one a person can take here, not already waiting for review, and the
    // limit matters now: below the ID level, or four fifths of the limit used.
    showKYCVerificationBanner:
      level >= 1 && nextStep !== undefined && nextCheck?.status !== 'pending' && (level < 3 || nearLimit),
  };
}
