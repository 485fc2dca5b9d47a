import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from '../../db/database.ts';
import { createChallengeService } from '../../server/services/challenge/challenge.ts';
import { systemContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import { checkSolution, solveChallenge } from '../../src/lib/shared/proof-of-work.ts';
import { createTestDb } from '../support/test-db.ts';

const DIFFICULTY = 8;
const TTL = 60_000;
const ctx = systemContext('test');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.restoreAllMocks();
});

async function setup(options: { enabled?: boolean } = {}) {
  const testDb = await createTestDb();
  cleanups.push(testDb.close);
  const clock = { at: 1_700_000_000_000 };
  const service = createChallengeService({
    db: testDb.db,
    now: () => clock.at,
    difficulty: DIFFICULTY,
    ttlMs: TTL,
    ...options,
  });
  return { ...testDb, clock, service };
}

async function solved(service: Awaited<ReturnType<typeof setup>>['service']) {
  const { challenge, difficulty } = await service.issue(ctx);
  const { nonce, seccode } = await solveChallenge(challenge, difficulty);
  return { geetest_challenge: challenge, geetest_validate: nonce, geetest_seccode: seccode };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.code;
  }
}

describe('challenge service', () => {
  it('issues a random 128-bit id with the difficulty and expiry it stored', async () => {
    const { service, clock, db } = await setup();
    const issued = await service.issue(ctx);
    expect(issued).toEqual({
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      difficulty: 8,
      expiresAt: clock.at + TTL,
    });
    const row = await db.sql.get('SELECT * FROM auth_challenges WHERE id = ?', [issued.challenge]);
    expect(row).toEqual({ id: issued.challenge, difficulty: 8, expires_at: clock.at + TTL, used_at: null });
    expect((await service.issue(ctx)).challenge).not.toBe(issued.challenge);
  });

  it('accepts a solved challenge once and refuses the replay', async () => {
    const { service } = await setup();
    const input = await solved(service);
    await expect(service.verify(ctx, input)).resolves.toBeUndefined();
    expect(await codeOf(service.verify(ctx, input))).toBe('CHALLENGE_INVALID');
  });

  it('accepts an upper-case seccode', async () => {
    const { service } = await setup();
    const input = await solved(service);
    await expect(
      service.verify(ctx, { ...input, geetest_seccode: input.geetest_seccode.toUpperCase() }),
    ).resolves.toBeUndefined();
  });

  it('lets a form without JavaScript pay in time: a challenge at least 3 s old, once', async () => {
    const { service, clock } = await setup();
    const { challenge } = await service.issue(ctx);
    const noscript = { geetest_challenge: challenge, geetest_validate: 'noscript' };
    clock.at += 2_999;
    expect(await codeOf(service.verify(ctx, noscript))).toBe('CHALLENGE_INVALID');
    clock.at += 1;
    await expect(service.verify(ctx, noscript)).resolves.toBeUndefined();
    expect(await codeOf(service.verify(ctx, noscript))).toBe('CHALLENGE_INVALID');
    expect(await codeOf(service.verify(ctx, { ...noscript, geetest_challenge: 'A'.repeat(22) }))).toBe(
      'CHALLENGE_INVALID',
    );
    clock.at += TTL;
    const late = { geetest_challenge: (await service.issue(ctx)).challenge, geetest_validate: 'noscript' };
    clock.at += TTL;
    expect(await codeOf(service.verify(ctx, late))).toBe('CHALLENGE_INVALID');
  });

  it('refuses a challenge at and after its expiry', async () => {
    const { service, clock } = await setup();
    const input = await solved(service);
    clock.at += TTL;
    expect(await codeOf(service.verify(ctx, input))).toBe('CHALLENGE_INVALID');
  });

  it('refuses a wrong seccode and an unknown challenge, without using the challenge up', async () => {
    const { service } = await setup();
    const input = await solved(service);
    const other = await checkSolution(input.geetest_challenge, `${input.geetest_validate}1`, 0);
    expect(await codeOf(service.verify(ctx, { ...input, geetest_seccode: other.seccode }))).toBe('CHALLENGE_INVALID');
    expect(await codeOf(service.verify(ctx, { ...input, geetest_challenge: 'A'.repeat(22) }))).toBe(
      'CHALLENGE_INVALID',
    );
    await expect(service.verify(ctx, input)).resolves.toBeUndefined();
  });

  it('refuses an honest digest whose zero bits fall short of the stored difficulty', async () => {
    const { service } = await setup();
    const { challenge } = await service.issue(ctx);
    // A first hex digit other than 0 means fewer than 4 zero bits; 15 nonces in 16 qualify.
    let nonce = 0;
    while ((await checkSolution(challenge, String(nonce), 0)).seccode.startsWith('0')) nonce++;
    const { seccode } = await checkSolution(challenge, String(nonce), 0);
    const input = { geetest_challenge: challenge, geetest_validate: String(nonce), geetest_seccode: seccode };
    expect(await codeOf(service.verify(ctx, input))).toBe('CHALLENGE_INVALID');
  });

  it('asks for the challenge when a field is missing or empty', async () => {
    const { service } = await setup();
    const input = await solved(service);
    for (const missing of ['geetest_challenge', 'geetest_validate', 'geetest_seccode'] as const) {
      for (const value of [undefined, '']) {
        const error = await service.verify(ctx, { ...input, [missing]: value }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: 'CHALLENGE_REQUIRED', field: 'geetest_challenge' });
      }
    }
    await expect(service.verify(ctx, {})).rejects.toMatchObject({ code: 'CHALLENGE_REQUIRED' });
  });

  it('rejects oversized or malformed input without hashing it', async () => {
    const { service } = await setup();
    const input = await solved(service);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (const bad of [
      { geetest_challenge: 'A'.repeat(1_000_000) },
      { geetest_validate: '1'.repeat(1_000_000) },
      { geetest_validate: '-1' },
      { geetest_seccode: `${input.geetest_seccode}0` },
      { geetest_seccode: 'z'.repeat(64) },
    ]) {
      expect(await codeOf(service.verify(ctx, { ...input, ...bad }))).toBe('CHALLENGE_INVALID');
    }
    expect(digest).not.toHaveBeenCalled();
  });

  it('lets only one of two concurrent submissions of the same solution through', async () => {
    const { service } = await setup();
    const input = await solved(service);
    const codes = await Promise.all([codeOf(service.verify(ctx, input)), codeOf(service.verify(ctx, input))]);
    expect(codes.sort()).toEqual(['CHALLENGE_INVALID', undefined]);
  });

  it('holds the single use across two connections to the same database', async () => {
    const { service, url, clock } = await setup();
    const db2 = await connectDatabase(url);
    cleanups.unshift(() => db2.close());
    const service2 = createChallengeService({ db: db2, now: () => clock.at, difficulty: DIFFICULTY, ttlMs: TTL });
    const input = await solved(service);
    const codes = await Promise.all([codeOf(service.verify(ctx, input)), codeOf(service2.verify(ctx, input))]);
    expect(codes.sort()).toEqual(['CHALLENGE_INVALID', undefined]);
  });

  it('sweeps expired rows while issuing, a bounded batch at a time', async () => {
    const { service, clock, db } = await setup();
    const count = async () => (await db.sql.get<{ n: number }>('SELECT count(*) AS n FROM auth_challenges'))?.n;
    // Every 16th issue sweeps, starting with the first (which found an empty table).
    for (let i = 0; i < 96; i++) await service.issue(ctx);
    expect(await count()).toBe(96);
    clock.at += TTL;
    // Issue 96 sweeps: 64 of the 96 expired rows go, the new row stays.
    await service.issue(ctx);
    expect(await count()).toBe(96 - 64 + 1);
    // Issue 112 takes the other 32: only the 17 live rows remain.
    for (let i = 0; i < 16; i++) await service.issue(ctx);
    expect(await count()).toBe(17);
  });

  it('accepts anything when switched off, and issues challenges that solve at once', async () => {
    const { service, db } = await setup({ enabled: false });
    await expect(service.verify(ctx, {})).resolves.toBeUndefined();
    await expect(
      service.verify(ctx, { geetest_challenge: 'x', geetest_validate: 'y', geetest_seccode: 'z' }),
    ).resolves.toBeUndefined();
    const issued = await service.issue(ctx);
    expect(issued.difficulty).toBe(0);
    expect((await solveChallenge(issued.challenge, issued.difficulty)).nonce).toBe('0');
    expect(await db.sql.get('SELECT count(*) AS n FROM auth_challenges')).toEqual({ n: 0 });
  });

  it('refuses a difficulty the browser could not solve', async () => {
    const { db } = await setup();
    expect(() => createChallengeService({ db, difficulty: 40 })).toThrow(RangeError);
  });
});
