import type { Db } from '../../../db/client.ts';
import type {
  TwoFactorPurposes,
  TwoFactorState,
  TwoFactorStatus,
} from '../../../src/lib/shared/views/settings.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { CodeThrottle, UserRow } from '../shared/account-types.ts';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.ts';
import { createTwoFactorRepository, DISABLED_SECRET, type TwoFactorRow } from './repository.ts';
import { looksLikeTotp, matchTotp, newTotpSecret, otpauthUrl, qrSvg } from './totp.ts';

// The second factor (spec section 3, "Two-factor"): an authenticator app's TOTP codes, with
// one-time recovery codes, required per purpose (login, sendout, release). Other areas ask one
// question, `verify(userId, purpose, code)`, and get the spec's check results back.

export type TwoFactorPurpose = 'login' | 'sendout' | 'release';
/** Spec section 3, "Check results": `disabled` = no second factor is required for this purpose. */
export type TwoFactorCheck = 'passed' | 'failed' | 'disabled';
export interface TwoFactorDeps {
  db: Db;
  now: () => number;
  /** The sign-in limits: wrong codes have their own count per account (server/services/accounts/throttle.ts). */
  throttle: CodeThrottle;
}

const OFF: TwoFactorPurposes = { login: false, sendout: false, release: false };

function stateOf(row: TwoFactorRow | null | undefined): TwoFactorState {
  if (!row) return 'initial';
  if (row.confirmedAt !== null) return 'enabled';
  return row.secret === DISABLED_SECRET ? 'disabled' : 'verification';
}

export function purposesOf(
  row: Pick<TwoFactorRow, 'confirmedAt' | 'forLogin' | 'forSendout' | 'forRelease'> | null | undefined,
): TwoFactorPurposes {
  if (!row || row.confirmedAt === null) return OFF;
  return { login: row.forLogin, sendout: row.forSendout, release: row.forRelease };
}

/** Signed in, a wrong code is a mistake in a form field, not a lost session: 400 on `code`. */
function wrongCode(): AppError {
  const message = 'This code is not correct. Enter the current code from your authenticator app or a recovery code.';
  return new AppError('ERROR_INPUT_VALIDATION', message, { field: 'code', details: [{ field: 'code', message }] });
}

function notEnabled(): AppError {
  return new AppError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not turned on for this account.');
}

export function createTwoFactorService({ db, now, throttle }: TwoFactorDeps) {
  const repo = createTwoFactorRepository(db);

  const load = (userId: number) => {
    const found = repo.find(userId);
    if (!found) throw new AppError('NOT_FOUND', 'This account was not found.');
    return found;
  };

  /** Spends a TOTP step or a recovery code of an enabled factor; false when it is neither. */
  const spend = (userId: number, row: TwoFactorRow, code: string): boolean => {
    const compact = code.replace(/\s/g, '');
    if (looksLikeTotp(compact)) {
      const step = matchTotp(row.secret, compact, now(), row.lastUsedStep);
      return step !== null && repo.spendStep(userId, step);
    }
    return repo.spendRecoveryHash(userId, hashRecoveryCode(code));
  };

  /**
   * A code checked under the limits: RATE_LIMITED once the account has had enough wrong codes.
   * The attempt is reserved, the code spent (a conditional UPDATE: one use, however many race)
   * and the outcome kept in one transaction, a savepoint when the caller has one open.
   */
  const check = (userId: number, email: string, row: TwoFactorRow, code: string): boolean =>
    immediate(db, () => {
      const attempt = throttle.reserveCode(email);
      if (spend(userId, row, code)) {
        throttle.succeeded(attempt);
        return true;
      }
      throttle.failed(attempt);
      return false;
    });

  /** The enabled factor of a signed-in person who proves it with `code`, or an error. */
  const requireCode = (user: UserRow, code: string): TwoFactorRow => {
    const { email, factor } = load(user.id);
    if (!factor || factor.confirmedAt === null) throw notEnabled();
    if (!check(user.id, email, factor, code)) throw wrongCode();
    return factor;
  };

  const status = (userId: number): TwoFactorStatus => {
    const { factor } = load(userId);
    const state = stateOf(factor);
    return {
      state,
      ...purposesOf(factor),
      recoveryCodesLeft: state === 'enabled' ? (factor?.recoveryCodeHashes.length ?? 0) : 0,
    };
  };

  return {
    status: (ctx: PersonContext) => status(ctx.auth.user.id),

    /**
     * What the current user's `twoFactor` says: all false unless on. Asked by other areas about
     * any account (a trade's seller), like `verify` below: see there.
     */
    purposes: (_ctx: ServiceContext, { userId }: { userId: number }): TwoFactorPurposes =>
      purposesOf(repo.find(userId)?.factor),

    /** A new secret to scan; replaces a pending one. Nothing is protected until `confirm`. */
    setup(ctx: PersonContext) {
      const { user } = ctx.auth;
      const secret = newTotpSecret();
      if (!repo.savePending(user.id, secret, now())) {
        throw new AppError(
          'TWO_FACTOR_ALREADY_ENABLED',
          'Two-factor authentication is already on. Turn it off first to use another authenticator.',
        );
      }
      const url = otpauthUrl(user.username, secret);
      return { secret, otpauthUrl: url, qrSvg: qrSvg(url) };
    },

    /**
     * Turns the factor on with a first code from the app, which proves the secret arrived. Answers
     * the recovery codes, in the clear this once. Wrong codes here do not count toward the limits:
     * the person already holds the secret, so there is nothing to guess.
     */
    confirm(ctx: PersonContext, { code }: { code: string }): { recoveryCodes: string[] } {
      const { user } = ctx.auth;
      const { factor } = load(user.id);
      const state = stateOf(factor);
      if (state === 'enabled') {
        throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on.');
      }
      if (!factor || state !== 'verification') {
        throw new AppError('TWO_FACTOR_NOT_ENABLED', 'Start the two-factor setup first: there is no code to confirm.');
      }
      const step = matchTotp(factor.secret, code.replace(/\s/g, ''), now(), factor.lastUsedStep);
      if (step === null) throw wrongCode();
      const recoveryCodes = newRecoveryCodes();
      // The confirming code's step counts as used: it cannot sign anyone in afterwards.
      if (!repo.confirm(user.id, factor.secret, step, recoveryCodes.map(hashRecoveryCode), now())) {
        throw new AppError('TWO_FACTOR_NOT_ENABLED', 'The setup changed meanwhile. Scan the new code and try again.');
      }
      return { recoveryCodes };
    },

    /** Turns the factor off; takes a current code or a recovery code. */
    disable(ctx: PersonContext, { code }: { code: string }): TwoFactorStatus {
      const { user } = ctx.auth;
      requireCode(user, code);
      repo.disable(user.id);
      return status(user.id);
    },

    updatePurposes(
      ctx: PersonContext,
      { purposes, code }: { purposes: TwoFactorPurposes; code: string },
    ): TwoFactorStatus {
      const { user } = ctx.auth;
      if (!purposes.login && !purposes.sendout && !purposes.release) {
        const message = 'Choose at least one thing to protect, or turn two-factor authentication off.';
        throw new AppError('ERROR_INPUT_VALIDATION', message, {
          field: 'login',
          details: (['login', 'sendout', 'release'] as const).map((field) => ({ field, message })),
        });
      }
      requireCode(user, code);
      repo.setPurposes(user.id, purposes);
      return status(user.id);
    },

    /**
     * The one check other areas make before a protected action. `failed` covers a missing code
     * (not counted: asking for it is the normal first step) and a wrong or used one (counted).
     * Throws RATE_LIMITED when the account has had too many wrong secrets lately.
     */
    verify(
      _ctx: ServiceContext,
      { userId, purpose, code }: { userId: number; purpose: TwoFactorPurpose; code?: string | undefined },
    ): TwoFactorCheck {
      const found = repo.find(userId);
      if (!found?.factor || !purposesOf(found.factor)[purpose]) return 'disabled';
      if (!code?.trim()) return 'failed';
      return check(userId, found.email, found.factor, code) ? 'passed' : 'failed';
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
