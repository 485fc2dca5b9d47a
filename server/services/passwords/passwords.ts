import { createHash, randomBytes } from 'node:crypto';
import { isValidEmail } from '../../../src/lib/shared/input-patterns.ts';
import { type ChallengeFields, normalizeEmail, type SiteLinks } from '../accounts/accounts.ts';
import {
  compromisedPasswordError,
  hashPassword,
  isCompromisedPassword,
  passwordPolicyIssue,
  verifyPassword,
} from '../accounts/password.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import type { SessionService } from '../accounts/sessions.ts';
import type { Throttle } from '../accounts/throttle.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import { AppError, type FieldIssue } from '../errors.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import type { ClientInfo, SessionRow, UserRow } from '../shared/account-types.ts';
import type { PasswordsRepository } from './repository.ts';

// Changing a password while signed in, and resetting a forgotten one through a mailed link
// (docs/decisions/028-password-change-and-reset.md, "Password change and reset"). Both are privilege changes: every session of
// the account ends. The reset link is the credential, so only its SHA-256 is stored, it works once
// and for an hour, and asking for one never tells whether an address has an account.

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** The window of both request limits below. */
export const RESET_WINDOW_MS = 60 * 60 * 1000;
/** Reset mails per account per window; more requests are answered alike and send nothing. */
export const MAX_RESET_MAILS_PER_ACCOUNT = 3;
/** Forgot-password requests per client address per window, known addresses or not (429). */
export const MAX_RESET_REQUESTS_PER_IP = 20;
/** Reset rows are kept a day (support questions), then pruned as new requests come. */
const RESET_RETENTION_MS = 24 * 60 * 60 * 1000;
/** 256 random bits in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const RESET_REDIRECT = '/login?reset=1';

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  /** A TOTP or recovery code, when the account asks for one at sign-in. */
  code?: string | undefined;
  client: ClientInfo;
}

export interface ForgotPasswordInput extends ChallengeFields {
  email: string;
  client: ClientInfo;
}

export interface ResetPasswordInput {
  token: string;
  password: string;
  code?: string | undefined;
  client: ClientInfo;
}

export interface PasswordsDeps {
  repo: PasswordsRepository;
  accounts: Pick<AccountsRepository, 'userByEmail' | 'userById' | 'markEmailVerified'>;
  sessions: Pick<SessionService, 'create' | 'invalidateAll'>;
  throttle: Pick<Throttle, 'reservePassword' | 'succeeded' | 'failed' | 'clearAccount'>;
  challenge: { verify(ctx: ServiceContext, input: ChallengeFields): Promise<void> };
  /** The second factor (server/services/two-factor): asked for when it protects sign-in. */
  secondFactor: {
    verify(
      ctx: ServiceContext,
      input: { userId: number; purpose: 'login'; code?: string | undefined },
    ): 'passed' | 'failed' | 'disabled';
    purposes(ctx: ServiceContext, input: { userId: number }): { login: boolean };
  };
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Links in the mails: the configured origin, never the request's Host. */
  siteOrigin: SiteLinks;
  now: () => number;
  log: (message: string, error?: unknown) => void;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function invalid(details: FieldIssue[]): AppError {
  const first: FieldIssue = details[0] ?? { field: 'password', message: 'Invalid input.' };
  return new AppError('ERROR_INPUT_VALIDATION', first.message, {
    field: first.field,
    details,
    ...(first.key ? { key: first.key, params: first.params ?? {} } : {}),
  });
}

/** `key`: the message's translation under `errors.` in locales/*.json, where one exists. */
const fieldError = (field: string, message: string, key?: string) =>
  invalid([{ field, message, ...(key ? { key } : {}) }]);

const invalidLink = () =>
  new AppError('NOT_FOUND', 'This password reset link is invalid, used or expired. Ask for a new one.', {
    field: 'token',
    key: 'reset_link_invalid',
  });

const WRONG_CODE = {
  message: 'This code is not correct. Enter the current code from your authenticator app or a recovery code.',
  key: 'two_factor_invalid',
};
const MISSING_CODE = { message: 'Enter the code from your authenticator app.', key: 'two_factor_required' };

/** `ada.lovelace@example.org` → `a•••@example.org`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const first = [...email.slice(0, Math.max(at, 0))][0] ?? '';
  return `${first}•••${at >= 0 ? email.slice(at) : ''}`;
}

export function createPasswordService(deps: PasswordsDeps) {
  const { repo, accounts, sessions, throttle, challenge, secondFactor, mailer, siteOrigin, now, log } = deps;

  /** The live link behind a token and its account, or 404 (unknown, used, replaced, expired). */
  const liveReset = (token: string) => {
    const reset = TOKEN_PATTERN.test(token) ? repo.liveReset(hashToken(token), now()) : undefined;
    const user = reset && accounts.userById(reset.userId);
    // An account closed after the link was sent gets no new password through it.
    if (!reset || !user || user.status === 'banned') throw invalidLink();
    return { reset, user };
  };

  const checkNewPassword = (password: string, field: string, extra: FieldIssue[] = []) => {
    const issue = passwordPolicyIssue(password, field);
    const details = issue ? [...extra, issue] : extra;
    if (details.length > 0) throw invalid(details);
    if (isCompromisedPassword(password)) throw compromisedPasswordError(field);
  };

  /** After the commit: a mail server that is down must not undo the change. */
  const mailChanged = async (user: UserRow, client: ClientInfo, how: 'changed' | 'reset') => {
    const when = new Date(now()).toUTCString();
    const what = how === 'reset' ? 'reset through the link sent to this address' : 'changed from your account settings';
    try {
      await mailer.send({
        to: user.email,
        subject: 'Your Coinfair password was changed',
        text: `Hello ${user.username},\n\nThe password of your Coinfair account was ${what} on ${when}, from address ${client.ip}. Every device signed in to your account was signed out.\n\nIf this was you, there is nothing more to do.\n\nIf it was not you, reset your password at once at ${siteOrigin.url('/forgot-password')} and contact our support: ${siteOrigin.url('/support')}\n`,
      });
    } catch (error) {
      log('could not send the password-changed e-mail', error);
    }
  };

  return {
    /**
     * A signed-in person replaces their password, proving the current one (counted on the
     * account's sign-in limit when wrong) and, when it protects sign-in, the second factor.
     * Answers the new session for this browser: every session, this one included, has ended.
     */
    async change(ctx: PersonContext, input: ChangePasswordInput): Promise<{ token: string; session: SessionRow }> {
      const { user } = ctx.auth;
      const { client } = input;
      // Reserved before argon2, so parallel wrong guesses cannot all pass the limit (issue 16).
      const attempt = throttle.reservePassword(user.email);
      const currentOk = await verifyPassword(user.passwordHash, input.currentPassword);
      if (currentOk) throttle.succeeded(attempt);
      else throttle.failed(attempt);
      checkNewPassword(
        input.newPassword,
        'newPassword',
        currentOk
          ? []
          : [
              {
                field: 'currentPassword',
                message: 'This is not your current password.',
                key: 'current_password_wrong',
              },
            ],
      );
      if (input.newPassword === input.currentPassword) {
        throw fieldError('newPassword', 'Choose a password different from your current one.', 'password_unchanged');
      }
      // Signed in, a wrong code is a mistake in a form field, not a lost session (as on the 2FA forms).
      if (secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code }) === 'failed') {
        const { message, key } = input.code?.trim() ? WRONG_CODE : MISSING_CODE;
        throw fieldError('code', message, key);
      }
      const passwordHash = await hashPassword(input.newPassword);
      const created = immediate(repo.db, () => {
        // Guarded on the hash this request verified: a change that won meanwhile is not overwritten.
        if (!repo.replacePasswordHash(user.id, user.passwordHash, passwordHash)) return undefined;
        // A reset link asked for earlier would otherwise undo this change.
        repo.expireUnused(user.id, now());
        sessions.invalidateAll(ctx, { userId: user.id });
        return sessions.create(ctx, { userId: user.id, client });
      });
      if (!created) {
        throw fieldError(
          'currentPassword',
          'Your password was changed meanwhile. Sign in again.',
          'password_changed_meanwhile',
        );
      }
      await mailChanged(user, client, 'changed');
      return created;
    },

    /**
     * "Forgot password": mails a reset link to an existing, open account. The answer and its work
     * are the same for any address; the mail leaves after the answer, so a slow mail server does
     * not tell either. Only the per-address limit answers 429; an account past its own limit
     * silently gets no further mail.
     */
    async requestReset(ctx: ServiceContext, input: ForgotPasswordInput): Promise<void> {
      const { client } = input;
      const email = normalizeEmail(input.email);
      if (!isValidEmail(email)) throw fieldError('email', 'Enter a valid e-mail address.', 'email_invalid');
      const assertUnderIpLimit = (at: number) => {
        const fromIp = repo.requestsSince(client.ip, at - RESET_WINDOW_MS);
        if (fromIp.count < MAX_RESET_REQUESTS_PER_IP) return;
        throw new AppError('RATE_LIMITED', 'Too many password reset requests. Wait a while and try again.', {
          key: 'reset_rate_limited',
          retryAfterSeconds: ((fromIp.oldest ?? at) + RESET_WINDOW_MS - at) / 1000,
        });
      };
      // Before the challenge (a refused request spends none) and again under the write lock with
      // the row it adds: parallel requests cannot all pass a count none of them has written to.
      assertUnderIpLimit(now());
      await challenge.verify(ctx, input);
      // Made for every request, used only for an account: the same work either way.
      const token = randomBytes(32).toString('base64url');
      const id = hashToken(token);
      const user = immediate(repo.db, () => {
        const createdAt = now();
        assertUnderIpLimit(createdAt);
        repo.recordRequest(client.ip, createdAt);
        repo.pruneRequests(createdAt - RESET_WINDOW_MS);
        repo.pruneResets(createdAt - RESET_RETENTION_MS);
        const found = accounts.userByEmail(email);
        if (!found || found.status === 'banned') return undefined;
        if (repo.resetsSince(found.id, createdAt - RESET_WINDOW_MS) >= MAX_RESET_MAILS_PER_ACCOUNT) return undefined;
        // One live link per account: the newest.
        repo.expireUnused(found.id, createdAt);
        repo.insertReset({
          id,
          userId: found.id,
          expiresAt: createdAt + RESET_TOKEN_TTL_MS,
          usedAt: null,
          createdAt,
        });
        return found;
      });
      if (!user) return;
      const link = siteOrigin.url(`/reset-password?token=${token}`);
      const message: EmailMessage = {
        to: user.email,
        subject: 'Reset your Coinfair password',
        text: `Hello ${user.username},\n\nSomeone, hopefully you, asked to reset the password of your Coinfair account. Choose a new password here:\n${link}\n\nThe link works once, for 1 hour. If you did not ask for it, ignore this message: your password stays as it is.\n`,
      };
      // Not awaited (see above); a failure is logged, the person can ask again.
      Promise.resolve()
        .then(() => mailer.send(message))
        .catch((error: unknown) => log('could not send the password reset e-mail', error));
    },

    /** What the reset page shows before the person types: whose account, and whether a code is due. */
    inspectReset(
      ctx: ServiceContext,
      { token }: { token: string },
    ): { valid: true; email: string; twoFactorRequired: boolean } {
      const { user } = liveReset(token);
      return {
        valid: true,
        email: maskEmail(user.email),
        twoFactorRequired: secondFactor.purposes(ctx, { userId: user.id }).login,
      };
    },

    /**
     * Sets a new password through a live link. The link is spent only on success: a weak password
     * or a wrong code leaves it usable. Proves the mailbox, so the address counts as verified and
     * the account's failed sign-ins are forgotten; every session ends and nobody is signed in.
     */
    async reset(ctx: ServiceContext, input: ResetPasswordInput): Promise<{ userId: number; redirectTo: string }> {
      const { client } = input;
      const { reset, user } = liveReset(input.token);
      checkNewPassword(input.password, 'password');
      // As at sign-in (the person is not signed in): 401 with the field, the link untouched.
      if (secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code }) === 'failed') {
        const { message, key } = input.code?.trim() ? WRONG_CODE : MISSING_CODE;
        throw new AppError(input.code?.trim() ? 'TWO_FACTOR_INVALID' : 'TWO_FACTOR_REQUIRED', message, {
          field: 'code',
          key,
          details: [{ field: 'code', message, key }],
        });
      }
      const passwordHash = await hashPassword(input.password);
      immediate(repo.db, () => {
        const at = now();
        if (!repo.consumeReset(reset.id, at)) throw invalidLink();
        repo.setPasswordHash(user.id, passwordHash);
        repo.expireUnused(user.id, at);
        accounts.markEmailVerified(user.id);
        sessions.invalidateAll(ctx, { userId: user.id });
        throttle.clearAccount(user.email);
      });
      await mailChanged(user, client, 'reset');
      return { userId: user.id, redirectTo: RESET_REDIRECT };
    },
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
