import { challengeRequired } from '../challenge/challenge.ts';
import { immediate } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Reservation } from '../shared/account-types.ts';
import type { AccountsRepository } from './repository.ts';

// Attempts in a sliding window, per account and per address. The account limit stops guessing one
// person's password; the address limit stops one machine spraying many.
//
// Every check reserves its attempt before the slow part (argon2) in one immediate transaction:
// count, compare with the limit, insert a row. A right secret deletes the row afterwards; a wrong
// one leaves it as a failure. So however many requests arrive at once, at most the limit is ever
// evaluated (in one process the transactions run one after another; across processes the write
// lock does the same), instead of every request passing a check made before any failure was
// written (issue 16).
//
// Nobody can lock anyone out (OWASP, "Authentication Cheat Sheet", account lockout): with the
// proof-of-work challenge on, an account past its limit asks for a solved challenge and delays
// each further failure, but the right password still signs in. With AUTH_CHALLENGE=off
// (automation) the account limit answers 429. The address limit always answers 429: it protects
// other people's accounts.

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 50;
/** After this many recent failures (or attempts in flight) a sign-in must carry a solved challenge. */
export const CHALLENGE_AFTER_FAILURES = 3;
/** First delay past the account limit; it doubles with each further failure, up to the cap. */
export const FAILURE_DELAY_BASE_MS = 250;
export const FAILURE_DELAY_MAX_MS = 10_000;

export const accountKey = (email: string) => `account:${email}`;
export const ipKey = (ip: string) => `ip:${ip}`;
/**
 * Second-factor codes count apart from passwords: only someone who has the password (or a session)
 * reaches a code check, so wrong passwords from a stranger never block the owner's code.
 */
export const codeKey = (email: string) => `code:${email}`;

export type { Reservation };

/**
 * How long to wait before answering a wrong password when the account has had `failures` (this one
 * included): nothing up to the limit, then 2^(failures − limit) × 250 ms, at most 10 s.
 */
export function failureDelayMs(failures: number): number {
  const beyond = failures - MAX_FAILURES_PER_ACCOUNT;
  if (beyond <= 0) return 0;
  return Math.min(FAILURE_DELAY_BASE_MS * 2 ** Math.min(beyond, 16), FAILURE_DELAY_MAX_MS);
}

export interface ThrottleDeps {
  repo: AccountsRepository;
  now: () => number;
  /** AUTH_CHALLENGE=on: past the account limit a solved challenge is asked for instead of a 429. */
  challengeEnabled?: boolean;
}

/** Attempts counted in the window and reserved under a limit, each in one immediate transaction. */
function reservations({ repo, now }: ThrottleDeps) {
  const since = () => now() - THROTTLE_WINDOW_MS;

  const limited = async (key: string) => {
    const oldest = (await repo.oldestAttempt(key, since())) ?? now();
    return new AppError('RATE_LIMITED', 'Too many failed attempts. Wait a few minutes and try again.', {
      retryAfterSeconds: Math.max(1, (oldest + THROTTLE_WINDOW_MS - now()) / 1000),
      key: 'too_many_attempts',
    });
  };

  /** Counts and inserts in one immediate transaction (a savepoint inside a caller's transaction). */
  const reserve = (
    keys: readonly string[],
    decide: (counts: number[]) => Promise<void>,
    account: string,
  ): Promise<Reservation> =>
    immediate(repo.db, async () => {
      const from = since();
      const counts: number[] = [];
      for (const key of keys) counts.push(await repo.countAttempts(key, from));
      await decide(counts);
      const at = now();
      const ids: number[] = [];
      for (const key of keys) ids.push(await repo.recordAttempt(key, at));
      return { ids, accountKey: account };
    });

  const reserveUnder = (key: string, limit: number) =>
    reserve(
      [key],
      async ([n = 0]) => {
        if (n >= limit) throw await limited(key);
      },
      key,
    );

  return { since, limited, reserve, reserveUnder };
}

export function createThrottle(deps: ThrottleDeps) {
  const { repo, now, challengeEnabled = false } = deps;
  const { since, limited, reserve, reserveUnder } = reservations(deps);

  return {
    /**
     * A sign-in's attempt, reserved before its password is checked. Throws RATE_LIMITED past the
     * address limit (and, with the challenge off, past the account limit), CHALLENGE_REQUIRED when
     * `challenged` is false and the account or address has had enough recent attempts.
     */
    reserveSignIn(email: string, ip: string, challenged: boolean): Promise<Reservation> {
      const account = accountKey(email);
      return reserve(
        [account, ipKey(ip)],
        async ([onAccount = 0, fromIp = 0]) => {
          if (fromIp >= MAX_FAILURES_PER_IP) throw await limited(ipKey(ip));
          if (!challengeEnabled && onAccount >= MAX_FAILURES_PER_ACCOUNT) throw await limited(account);
          if (challengeEnabled && !challenged && Math.max(onAccount, fromIp) >= CHALLENGE_AFTER_FAILURES) {
            throw challengeRequired();
          }
        },
        account,
      );
    },

    /**
     * Whether a sign-in would have to carry a challenge now. Only a hint (the reservation decides):
     * it tells whether to spend the no-JavaScript marker, which counts only when required.
     */
    async challengeDue(email: string, ip: string): Promise<boolean> {
      if (!challengeEnabled) return false;
      const from = since();
      const onAccount = await repo.countAttempts(accountKey(email), from);
      const fromIp = await repo.countAttempts(ipKey(ip), from);
      return Math.max(onAccount, fromIp) >= CHALLENGE_AFTER_FAILURES;
    },

    /**
     * A signed-in form's current password (counted on the sign-in limit; no challenge on that
     * form, so past the limit it answers 429).
     */
    reservePassword: (email: string): Promise<Reservation> => reserveUnder(accountKey(email), MAX_FAILURES_PER_ACCOUNT),

    /** A second-factor code: its own count per account, 429 past the limit. */
    reserveCode: (email: string): Promise<Reservation> => reserveUnder(codeKey(email), MAX_FAILURES_PER_ACCOUNT),

    /** The secret was right: the reservation was no failure. */
    async succeeded(reservation: Reservation): Promise<void> {
      await repo.deleteAttemptsById(reservation.ids);
    },

    /** The secret was wrong: the reservation stays as a failure. Answers the account's count now. */
    async failed(reservation: Reservation): Promise<number> {
      const at = now();
      // Old rows only slow the counts down; drop them as we go.
      await repo.pruneAttempts(at - THROTTLE_WINDOW_MS);
      return repo.countAttempts(reservation.accountKey, at - THROTTLE_WINDOW_MS);
    },

    // A password reset proves control of the mailbox and replaces the password that was being
    // guessed: the account's failures no longer stand between its owner and a sign-in. The
    // address's count stays (it protects other accounts).
    async clearAccount(email: string): Promise<void> {
      await repo.deleteAttempts(accountKey(email));
      await repo.deleteAttempts(codeKey(email));
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
