import { randomBytes } from 'node:crypto';
import type { DatabaseLike } from '../../../db/database.ts';
import { checkSolution } from '../../../src/lib/shared/proof-of-work.ts';
import type { ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { createChallengeRepository } from './repository.ts';

// The self-hosted anti-bot check of the register and login forms: we issue a random challenge,
// the browser finds a nonce whose SHA-256 starts with enough zero bits (src/lib/shared/proof-of-work.ts),
// and the form sends it back in the fields the spec inherited from its former captcha vendor.

/**
 * Leading zero bits, i.e. 2^14 ≈ 16k hashes per solve on average. Measured with solveChallenge
 * (batch 256) on the 2-core Xeon build machine: ~5 µs per hash in headless Chromium, ~8 µs in
 * Node 24, so a mean solve of ~80 ms (Chromium) / ~130 ms (Node). Phones are 5–10× slower:
 * ~0.4–0.8 s on average, and the search is geometric, so 9 solves in 10 stay under 2.3× that.
 * 16 bits would average 1.6–3.3 s on a phone, beyond the ~1.5 s budget. A bot with native
 * SHA-256 pays milliseconds either way: this is a speed bump, the sign-in limits do the rest.
 */
export const DEFAULT_DIFFICULTY = 14;
export const DEFAULT_TTL_MS = 10 * 60_000;
/**
 * A browser without JavaScript cannot solve the puzzle; its form sends this instead and pays in
 * time: the challenge (issued when the page rendered) must be this old. A bot gains nothing over
 * the puzzle, which native code solves in milliseconds anyway; the sign-in limits do the rest.
 */
export const NOSCRIPT_NONCE = 'noscript';
export const NOSCRIPT_MIN_AGE_MS = 3_000;

/** 128 random bits in base64url: 22 characters. */
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** The solver counts up from 0 in decimal; 16 digits is past anything it reaches at 32 bits. */
const NONCE_PATTERN = /^[0-9]{1,16}$/;
const SECCODE_PATTERN = /^[0-9a-fA-F]{64}$/;

// Every SWEEP_EVERY-th issue deletes up to SWEEP_LIMIT expired rows: more than it adds, so expired
// rows cannot pile up, and never more than one short indexed DELETE per call.
const SWEEP_EVERY = 16;
const SWEEP_LIMIT = 64;

export interface ChallengeInput {
  geetest_challenge?: string | undefined;
  geetest_validate?: string | undefined;
  geetest_seccode?: string | undefined;
}

export interface IssuedChallenge {
  challenge: string;
  difficulty: number;
  /** Unix milliseconds. */
  expiresAt: number;
}

const FIELD = 'geetest_challenge';

/** Also thrown by the sign-in limits when a sign-in without a solved challenge comes too late. */
export function challengeRequired(): AppError {
  return new AppError('CHALLENGE_REQUIRED', 'Please complete the security check.', {
    field: FIELD,
    key: 'challenge_required',
  });
}

// One answer for every way a solution can fail, so probing learns nothing; the form fetches a
// fresh challenge and solves again.
function invalid(): AppError {
  return new AppError('CHALLENGE_INVALID', 'The security check failed or expired. Please try again.', {
    field: FIELD,
    key: 'challenge_invalid',
  });
}

function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

export function createChallengeService({
  db,
  now = Date.now,
  enabled = true,
  difficulty = DEFAULT_DIFFICULTY,
  ttlMs = DEFAULT_TTL_MS,
}: {
  db: DatabaseLike;
  now?: () => number;
  /** False with AUTH_CHALLENGE=off (automation, load tests). */
  enabled?: boolean;
  difficulty?: number;
  ttlMs?: number;
}) {
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 32) {
    throw new RangeError(`challenge difficulty must be an integer from 0 to 32, got ${difficulty}`);
  }
  const repo = createChallengeRepository(db);
  let issued = 0;

  return {
    async issue(_ctx: ServiceContext): Promise<IssuedChallenge> {
      const at = now();
      const challenge = randomBytes(16).toString('base64url');
      const expiresAt = at + ttlMs;
      // Switched off, the form still runs its solver; difficulty 0 makes that instant, and
      // nothing is stored because verify will not look.
      if (!enabled) return { challenge, difficulty: 0, expiresAt };
      // The first call sweeps too, clearing what a previous run left behind.
      if (issued++ % SWEEP_EVERY === 0) await repo.deleteExpired(at, SWEEP_LIMIT);
      await repo.insert({ id: challenge, difficulty, expiresAt });
      return { challenge, difficulty, expiresAt };
    },

    async verify(_ctx: ServiceContext, input: ChallengeInput): Promise<void> {
      if (!enabled) return;
      const { geetest_challenge: id, geetest_validate: nonce, geetest_seccode: seccode } = input;
      if (nonce === NOSCRIPT_NONCE && isFilled(id) && CHALLENGE_PATTERN.test(id)) {
        const row = await repo.find(id);
        const at = now();
        if (!row || row.usedAt !== null || row.expiresAt <= at) throw invalid();
        if (at - (row.expiresAt - ttlMs) < NOSCRIPT_MIN_AGE_MS) throw invalid();
        if (!(await repo.markUsed(id, at))) throw invalid();
        return;
      }
      if (!isFilled(id) || !isFilled(nonce) || !isFilled(seccode)) throw challengeRequired();
      // Shapes first: client input is never hashed or looked up unless it could be ours.
      if (!CHALLENGE_PATTERN.test(id) || !NONCE_PATTERN.test(nonce) || !SECCODE_PATTERN.test(seccode)) {
        throw invalid();
      }
      const row = await repo.find(id);
      if (!row || row.usedAt !== null || row.expiresAt <= now()) throw invalid();
      // The row's difficulty, not the current setting: a change must not void challenges in flight.
      const solution = await checkSolution(id, nonce, row.difficulty);
      // A plain comparison is fine: the seccode is derived from public values, not a secret.
      if (solution.seccode !== seccode.toLowerCase() || !solution.ok) throw invalid();
      // The check above ran before this await returned; a twin submission may have won meanwhile.
      if (!(await repo.markUsed(id, now()))) throw invalid();
    },
  };
}

export type ChallengeService = ReturnType<typeof createChallengeService>;
