import type { TwoFactorPurposes } from '../../../src/lib/shared/views/settings.ts';
import { bindVerb, type PersonContext, type ServiceContext } from '../context.ts';
import { disableTwoFactor, updatePurposes } from './change.ts';
import { statusOf } from './codes.ts';
import { confirmTwoFactor } from './confirm.ts';
import { createTwoFactorRepository } from './repository.ts';
import { setupTwoFactor } from './setup.ts';
import { purposesOf } from './state.ts';
import type { TwoFactorDeps, TwoFactorParts } from './types.ts';
import { verifyEnabledFactor, verifyTwoFactor } from './verify.ts';

// The second factor (spec section 3, "Two-factor"): an authenticator app's TOTP codes, with
// one-time recovery codes, required per purpose (login, sendout, release). Other areas ask one
// question, `verify(userId, purpose, code)`, and get the spec's check results back.
// One verb per file; this wires them to the area's statements.

export { purposesOf } from './state.ts';
export type { TwoFactorCheck, TwoFactorDeps, TwoFactorPurpose } from './types.ts';

/** The verbs with their deps bound: what callers see is `verb(ctx, input)`. */
export function createTwoFactorService(deps: TwoFactorDeps) {
  const parts: TwoFactorParts = { ...deps, repo: createTwoFactorRepository(deps.db) };
  return {
    status: (ctx: PersonContext) => statusOf(parts, ctx.auth.user.id),

    /**
     * What the current user's `twoFactor` says: all false unless on. Asked by other areas about
     * any account (a trade's seller), like `verify` below: see there.
     */
    purposes: async (_ctx: ServiceContext, { userId }: { userId: number }): Promise<TwoFactorPurposes> =>
      purposesOf((await parts.repo.find(userId))?.factor),

    /** A new secret to scan; replaces a pending one. Nothing is protected until `confirm`. */
    setup: (ctx: PersonContext) => setupTwoFactor(parts, ctx),
    /** Turns the factor on with a first code from the app; answers the recovery codes this once. */
    confirm: bindVerb(parts, confirmTwoFactor),
    /** Turns the factor off; takes a current code or a recovery code. */
    disable: bindVerb(parts, disableTwoFactor),
    updatePurposes: bindVerb(parts, updatePurposes),
    /** The one check other areas make before a protected action (see verify.ts). */
    verify: bindVerb(parts, verifyTwoFactor),
    /** Any enabled factor, whatever its purposes: the operators' second factor (verify.ts). */
    verifyEnabled: bindVerb(parts, verifyEnabledFactor),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
