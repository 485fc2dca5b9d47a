import { createHash, randomBytes, randomInt } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import {
  isValidEmail,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../../../src/lib/shared/input-patterns.ts';
import { safeBackPath } from '../../../src/lib/shared/safe-back-path.ts';
import { NOSCRIPT_NONCE } from '../challenge/challenge.ts';
import { immediate, type PersonContext, type ServiceContext } from '../context.ts';
import { AppError, type FieldIssue } from '../errors.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import type { ClientInfo, UserRow } from '../shared/account-types.ts';
import { profileFacts, toCurrentUser, type VerificationFlags } from './current-user.ts';
import {
  compromisedPasswordError,
  decoyPasswordHash,
  hashPassword,
  isCompromisedPassword,
  passwordPolicyIssue,
  verifyPassword,
} from './password.ts';
import type { AccountsRepository } from './repository.ts';
import type { SessionService } from './sessions.ts';
import { failureDelayMs, MAX_FAILURES_PER_ACCOUNT, THROTTLE_WINDOW_MS, type Throttle } from './throttle.ts';

const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;

/**
 * Who is asking (server/services/shared/account-types.ts). Deliberately no origin: links in mail
 * come from the configured site origin (server/site-origin.ts), never from the request's Host
 * header, which an attacker writes.
 */
export type { ClientInfo };

/** The configured origin's absolute URLs (server/site-origin.ts). */
export interface SiteLinks {
  url(pathAndQuery: string): string;
}

export interface ChallengeFields {
  geetest_challenge?: string | undefined;
  geetest_validate?: string | undefined;
  geetest_seccode?: string | undefined;
}

export interface AccountsDeps {
  repo: AccountsRepository;
  sessions: SessionService;
  throttle: Throttle;
  challenge: { verify(ctx: ServiceContext, input: ChallengeFields): Promise<void> };
  /** The second factor (server/services/two-factor), asked only after the password was right. */
  secondFactor: {
    verify(
      ctx: ServiceContext,
      input: { userId: number; purpose: 'login'; code?: string | undefined },
    ): 'passed' | 'failed' | 'disabled';
  };
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Device review (server/services/devices): records each sign-in's device, mails a new one. */
  devices: {
    recordSignIn(ctx: ServiceContext, input: { userId: number; client: ClientInfo }): string | undefined;
    mailReview(
      ctx: ServiceContext,
      input: { user: { id?: number; email: string; username: string }; token: string; client: ClientInfo },
    ): Promise<void>;
  };
  siteOrigin: SiteLinks;
  now: () => number;
  /** Waits before answering a wrong password past the account limit (tests pass one that returns at once). */
  sleep: (ms: number) => Promise<void>;
  log: (message: string, error?: unknown) => void;
}

export interface RegisterInput extends ChallengeFields {
  email: string;
  password: string;
  back?: string | undefined;
  entry_point?: string | undefined;
  referral_code?: string | undefined;
  vendors_terms_accepted?: boolean | undefined;
  client: ClientInfo;
}

export interface LoginInput extends ChallengeFields {
  email: string;
  password: string;
  back?: string | undefined;
  /** A TOTP or recovery code, when the account asks for one at sign-in. */
  code?: string | undefined;
  client: ClientInfo;
}

/** Only a path on this site (src/lib/shared/safe-back-path.ts). */
export const safeRedirect = (back: string | undefined, fallback = '/'): string => safeBackPath(back, fallback);

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function fieldError(
  field: string,
  message: string,
  key: string,
  meta?: Record<string, unknown>,
  params: Record<string, string | number> = {},
): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, {
    field,
    key,
    params,
    details: [{ field, message, key, params }],
    ...(meta ? { meta } : {}),
  });
}

const emailTaken = () => fieldError('email', 'An account with this e-mail address already exists.', 'email_taken');
const usernameAlreadyChanged = () =>
  new AppError('USERNAME_ALREADY_CHANGED', 'You have already changed your username once.', {
    field: 'username',
    key: 'username_already_changed',
  });

export function createAccountsService(deps: AccountsDeps) {
  const { repo, sessions, throttle, challenge, secondFactor, mailer, devices, siteOrigin, now, sleep, log } = deps;

  /** `ada.lovelace+p2p@…` → `adalovelace4821`: readable, unique, letters and digits only. */
  const generateUsername = (email: string): string => {
    const base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 14);
    const stem = base.length >= USERNAME_MIN_LENGTH ? base : 'trader';
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = `${stem}${randomInt(1000, 100_000)}`;
      if (!repo.usernameTaken(candidate)) return candidate;
    }
    return `${stem}${randomBytes(5).toString('hex')}`.slice(0, USERNAME_MAX_LENGTH);
  };

  const sendVerification = async (user: UserRow) => {
    const token = randomBytes(32).toString('base64url');
    repo.insertVerification({
      id: hashToken(token),
      userId: user.id,
      email: user.email,
      expiresAt: now() + EMAIL_VERIFICATION_TTL_MS,
    });
    const link = siteOrigin.url(`/auth/verify-email?token=${token}`);
    // Sent after the account is committed: a mail server that is down must not undo a sign-up.
    try {
      await mailer.send({
        to: user.email,
        subject: 'Confirm your e-mail address for Coinfair',
        text: `Hello ${user.username},\n\nConfirm your e-mail address to start trading on Coinfair:\n${link}\n\nThe link works for 48 hours. If you did not create an account, ignore this message.\n`,
      });
    } catch (error) {
      log('could not send the verification e-mail', error);
    }
  };

  /**
   * Tells the owner, once per window, that someone is guessing their password (OWASP: notify
   * rather than lock). Not awaited: the failure's answer must not take longer for a real account.
   */
  const alertOwner = (user: UserRow, ip: string, failures: number) => {
    const at = now();
    if (!repo.claimSignInAlert(user.id, at, at - THROTTLE_WINDOW_MS)) return;
    const minutes = THROTTLE_WINDOW_MS / 60_000;
    const message: EmailMessage = {
      to: user.email,
      subject: 'Someone is trying to guess your Coinfair password',
      text: `Hello ${user.username},\n\nSomeone has typed a wrong password for your Coinfair account ${failures} times in the last ${minutes} minutes, most recently from address ${ip}. For a while, signing in to it asks for an extra security check.\n\nIf it was you, there is nothing to do: sign in with your password as usual.\n\nIf it was not you, your account stays safe as long as nobody knows your password. To be safer, turn on two-factor authentication in your settings: ${siteOrigin.url('/settings')}\nTo choose a new password, use ${siteOrigin.url('/forgot-password')}\n`,
    };
    Promise.resolve()
      .then(() => mailer.send(message))
      .catch((error: unknown) => log('could not send the sign-in alert e-mail', error));
  };

  return {
    /** A visitor opens an account and is signed in to it. */
    async register(ctx: ServiceContext, input: RegisterInput) {
      const { client } = input;
      await challenge.verify(ctx, input);
      const email = normalizeEmail(input.email);
      const details: FieldIssue[] = [];
      if (!isValidEmail(email)) {
        details.push({ field: 'email', message: 'Enter a valid e-mail address.', key: 'email_invalid' });
      }
      const passwordIssue = passwordPolicyIssue(input.password, 'password');
      if (passwordIssue) details.push(passwordIssue);
      if (details.length > 0) {
        throw new AppError('ERROR_INPUT_VALIDATION', details[0]?.message ?? 'Invalid input.', {
          field: details[0]?.field ?? 'email',
          ...(details[0]?.key ? { key: details[0].key, params: details[0].params ?? {} } : {}),
          details,
        });
      }
      if (isCompromisedPassword(input.password)) throw compromisedPasswordError('password');
      // An account per address: saying so helps people who forgot they registered; the per-IP
      // sign-in limits bound what an enumerator learns.
      if (repo.userByEmail(email)) throw emailTaken();

      const passwordHash = await hashPassword(input.password);
      const referredById = input.referral_code ? repo.userIdByReferralCode(input.referral_code) : undefined;
      const at = now();
      const { user, token, session } = immediate(repo.db, () => {
        // Checked again inside the write lock: two sign-ups racing with one address.
        if (repo.userByEmail(email)) throw emailTaken();
        const created = repo.insertUser({
          publicId: newId('usr'),
          username: generateUsername(email),
          email,
          passwordHash,
          referralCode: randomBytes(5).toString('hex'),
          referredById: referredById ?? null,
          isVendor: input.vendors_terms_accepted === true,
          lastSeenAt: at,
          createdAt: at,
        });
        // The account's first device: recorded as confirmed, nothing to review.
        devices.recordSignIn(ctx, { userId: created.id, client });
        return { user: created, ...sessions.create(ctx, { userId: created.id, client }) };
      });
      await sendVerification(user);
      return { token, session, user, redirectTo: safeRedirect(input.back) };
    },

    /** A visitor signs in with e-mail, password and, when the account asks, a second-factor code. */
    async login(ctx: ServiceContext, input: LoginInput) {
      const { client } = input;
      const email = normalizeEmail(input.email);
      // The challenge is optional on login (spec section 5) until failures pile up.
      // A form without JavaScript always offers its `noscript` marker; it counts only when required.
      const hasChallenge =
        input.geetest_validate !== NOSCRIPT_NONCE &&
        Boolean(input.geetest_challenge || input.geetest_validate || input.geetest_seccode);
      const challenged = hasChallenge || throttle.challengeDue(email, client.ip);
      // Solved (and spent) before the attempt is reserved: the reservation then knows it came.
      if (challenged) await challenge.verify(ctx, input);
      const reservation = throttle.reserveSignIn(email, client.ip, challenged);
      const user = repo.userByEmail(email);
      // An unknown address still costs one argon2 verification (against a hash nothing matches),
      // so the answer's timing does not tell which addresses have accounts.
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
      if (!user || !passwordOk) {
        const failures = throttle.failed(reservation);
        if (user && failures >= MAX_FAILURES_PER_ACCOUNT) alertOwner(user, client.ip, failures);
        // Past the account limit (challenge on) each further failure waits longer; the right
        // password never waits. Unknown addresses wait alike, so the delay tells nothing.
        const delay = failureDelayMs(failures);
        if (delay > 0) await sleep(delay);
        // One answer for an unknown address and a wrong password.
        throw new AppError('INVALID_CREDENTIALS', 'The e-mail address or the password is not correct.', {
          field: 'password',
          key: 'invalid_credentials',
          details: [
            {
              field: 'password',
              message: 'The e-mail address or the password is not correct.',
              key: 'invalid_credentials',
            },
          ],
        });
      }
      throttle.succeeded(reservation);
      // Only now, with the password proven, may the answer say that a second factor is on.
      const factor = secondFactor.verify(ctx, { userId: user.id, purpose: 'login', code: input.code });
      if (factor === 'failed') {
        const message = input.code?.trim()
          ? 'This code is not correct. Enter the current code from your authenticator app or a recovery code.'
          : 'Enter the code from your authenticator app.';
        const key = input.code?.trim() ? 'two_factor_invalid' : 'two_factor_required';
        throw new AppError(input.code?.trim() ? 'TWO_FACTOR_INVALID' : 'TWO_FACTOR_REQUIRED', message, {
          field: 'code',
          key,
          details: [{ field: 'code', message, key }],
        });
      }
      if (user.status === 'banned') {
        throw new AppError(
          'ACCOUNT_BANNED',
          'This account is closed. Contact support if you think this is a mistake.',
          {
            key: 'account_banned',
          },
        );
      }
      // The session and its device row together; the review mail only once both are committed.
      const { token, session, reviewToken } = immediate(repo.db, () => ({
        ...sessions.create(ctx, { userId: user.id, client }),
        reviewToken: devices.recordSignIn(ctx, { userId: user.id, client }),
      }));
      repo.touchLastSeen(user.id, now());
      if (reviewToken) await devices.mailReview(ctx, { user, token: reviewToken, client });
      return {
        token,
        session,
        user,
        redirectTo: safeRedirect(input.back),
        compromised: isCompromisedPassword(input.password),
      };
    },

    /** Ends the session the person signed in with. */
    logout(ctx: PersonContext): void {
      sessions.invalidate(ctx, { sessionId: ctx.auth.session.id });
    },

    /** Confirms the address behind a link; a used, expired or unknown link changes nothing. */
    verifyEmail(_ctx: ServiceContext, { token }: { token: string }): UserRow {
      const userId =
        token.length <= 100
          ? immediate(repo.db, () => {
              const spentBy = repo.consumeVerification(hashToken(token), now());
              if (spentBy !== undefined) repo.markEmailVerified(spentBy);
              return spentBy;
            })
          : undefined;
      if (userId === undefined) {
        throw new AppError('TOKEN_INVALID', 'This confirmation link is invalid or has expired. Request a new one.');
      }
      const user = repo.userById(userId);
      if (!user) throw new AppError('TOKEN_INVALID', 'This confirmation link belongs to no account.');
      return user;
    },

    async resendVerification(ctx: PersonContext) {
      const { user } = ctx.auth;
      if (user.isEmailVerified) return;
      await sendVerification(user);
    },

    setUsername(ctx: PersonContext, { username }: { username: string }): UserRow {
      const { user } = ctx.auth;
      const name = username.trim();
      if (name.length < USERNAME_MIN_LENGTH || name.length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(name)) {
        throw fieldError(
          'username',
          `Use ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} letters and digits, nothing else.`,
          'username_invalid',
          undefined,
          { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH },
        );
      }
      if (user.isUsernameChanged) {
        throw usernameAlreadyChanged();
      }
      if (name.toLowerCase() !== user.username.toLowerCase() && repo.usernameTaken(name)) {
        throw fieldError('username', 'This username is taken. Try another one.', 'username_taken');
      }
      if (!repo.setUsername(user.id, name)) {
        throw usernameAlreadyChanged();
      }
      return { ...user, username: name, isUsernameChanged: true };
    },

    /** The signed-in person as spec section 3 shows them; `profile` came with the session. */
    currentUser(ctx: PersonContext, { locale, verification }: { locale: string; verification?: VerificationFlags }) {
      const { user, profile } = ctx.auth;
      const { place, extras } = profileFacts(profile);
      // Read here rather than with the session's profile: only current-user answers need the sum.
      const withTrades = { ...extras, btcTraded: repo.btcTraded(user.id) };
      return toCurrentUser(user, place, locale, verification ? { ...withTrades, verification } : withTrades);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
