import { AppError } from '../errors.ts';
import type { AccountsRepository } from './repository.ts';

// Failed password attempts in a sliding window, per account and per address. The account limit
// stops guessing one person's password; the address limit stops one machine spraying many.

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 50;
/** After this many recent failures a sign-in must carry a solved challenge. */
export const CHALLENGE_AFTER_FAILURES = 3;

export const accountKey = (email: string) => `account:${email}`;
export const ipKey = (ip: string) => `ip:${ip}`;

export function createThrottle({ repo, now }: { repo: AccountsRepository; now: () => number }) {
  const since = () => now() - THROTTLE_WINDOW_MS;

  const assertUnder = (key: string, limit: number) => {
    if (repo.countAttempts(key, since()) < limit) return;
    const oldest = repo.oldestAttempt(key, since()) ?? now();
    throw new AppError('RATE_LIMITED', 'Too many failed attempts. Wait a few minutes and try again.', {
      retryAfterSeconds: (oldest + THROTTLE_WINDOW_MS - now()) / 1000,
      key: 'too_many_attempts',
    });
  };

  return {
    /** Throws RATE_LIMITED with Retry-After when either limit is reached. */
    check(email: string, ip: string): void {
      assertUnder(accountKey(email), MAX_FAILURES_PER_ACCOUNT);
      assertUnder(ipKey(ip), MAX_FAILURES_PER_IP);
    },

    recentFailures(email: string, ip: string): number {
      return Math.max(repo.countAttempts(accountKey(email), since()), repo.countAttempts(ipKey(ip), since()));
    },

    recordFailure(email: string, ip: string): void {
      const at = now();
      repo.recordAttempt(accountKey(email), at);
      repo.recordAttempt(ipKey(ip), at);
      // Old rows only slow the counts down; drop them as we go.
      repo.pruneAttempts(at - THROTTLE_WINDOW_MS);
    },

    // Wrong second-factor codes share the account's count with wrong passwords: someone who has
    // the password gets 10 guesses in all per window, not 10 more per kind of secret. Checks of
    // a code away from the sign-in form know no client address, so they count on the account.
    checkAccount(email: string): void {
      assertUnder(accountKey(email), MAX_FAILURES_PER_ACCOUNT);
    },

    recordAccountFailure(email: string): void {
      const at = now();
      repo.recordAttempt(accountKey(email), at);
      repo.pruneAttempts(at - THROTTLE_WINDOW_MS);
    },

    // A password reset proves control of the mailbox and replaces the password that was being
    // guessed: the account's failures no longer stand between its owner and a sign-in. The
    // address's count stays (it protects other accounts).
    clearAccount(email: string): void {
      repo.deleteAttempts(accountKey(email));
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
