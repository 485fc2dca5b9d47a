import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createSessionService } from '../../server/services/accounts/sessions.ts';
import { personContext, systemContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import { createTwoFactorService } from '../../server/services/two-factor/two-factor.ts';
import { createTestDb } from '../support/test-db.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The service over a fresh database, a clock the test moves and a throttle that only counts. */
async function setup() {
  const testDb = await createTestDb();
  cleanups.push(testDb.close);
  const clock = { now: T0 };
  const failures: string[] = [];
  const service = createTwoFactorService({
    db: testDb.db,
    now: () => clock.now,
    throttle: {
      reserveCode: async (email) => ({ ids: [], accountKey: email }),
      async succeeded() {},
      failed: async (attempt) => failures.push(attempt.accountKey),
    },
  });
  const { user, person } = await buyerSignedIn(testDb.db, clock.now);
  return { service, clock, failures, user, person };
}

/** The seed's buyer with a fresh session: the context the settings routes hand the service. */
async function buyerSignedIn(db: Database, now: number) {
  const accounts = createAccountsRepository(db);
  const user = await accounts.userByEmail('buyer@example.com');
  if (!user) throw new Error('the seed has no buyer@example.com');
  const sessions = createSessionService({ repo: accounts, now: () => now });
  const { token } = await sessions.create(systemContext('test'), {
    userId: user.id,
    client: { ip: '127.0.0.1', userAgent: 'test' },
  });
  const auth = await sessions.validate(token);
  if (!auth) throw new Error('the session did not validate');
  return { user, person: personContext(auth) };
}

async function codeOf(fn: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return undefined;
}

/** Setup and confirmation at the current clock; the confirming step is then used. */
async function enable({ service, clock, person }: Awaited<ReturnType<typeof setup>>) {
  const { secret } = await service.setup(person);
  const code = () => generateSync({ secret, epoch: Math.floor(clock.now / 1000) });
  const { recoveryCodes } = await service.confirm(person, { code: code() });
  return { secret, code, recoveryCodes };
}

describe('two-factor service', () => {
  it('walks the states: initial, verification, enabled, disabled', async () => {
    const ctx = await setup();
    const { service, user, person, clock } = ctx;
    expect(await service.status(person)).toEqual({
      state: 'initial',
      login: false,
      sendout: false,
      release: false,
      recoveryCodesLeft: 0,
    });
    const first = await service.setup(person);
    const second = await service.setup(person); // a new scan replaces a pending secret
    expect(second.secret).not.toBe(first.secret);
    expect((await service.status(person)).state).toBe('verification');
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '000000' })).toBe(
      'disabled',
    ); // pending protects nothing
    const stale = generateSync({ secret: first.secret, epoch: T0 / 1000 });
    expect(await codeOf(() => service.confirm(person, { code: stale }))).toBe('ERROR_INPUT_VALIDATION');

    const code = generateSync({ secret: second.secret, epoch: T0 / 1000 });
    expect((await service.confirm(person, { code })).recoveryCodes).toHaveLength(10);
    expect(await service.status(person)).toEqual({
      state: 'enabled',
      login: true,
      sendout: true,
      release: true,
      recoveryCodesLeft: 10,
    });
    expect(await codeOf(() => service.setup(person))).toBe('TWO_FACTOR_ALREADY_ENABLED');
    expect(await codeOf(() => service.confirm(person, { code }))).toBe('TWO_FACTOR_ALREADY_ENABLED');

    clock.now += 30_000;
    const next = generateSync({ secret: second.secret, epoch: clock.now / 1000 });
    expect(await service.disable(person, { code: next })).toMatchObject({ state: 'disabled', login: false });
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: next })).toBe(
      'disabled',
    );
    expect(await codeOf(() => service.disable(person, { code: next }))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(await codeOf(() => service.confirm(person, { code: next }))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect((await service.setup(person)).secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await service.status(person)).state).toBe('verification');
  });

  it('spends each time step once: the confirming code, a replay and an older step all fail', async () => {
    const ctx = await setup();
    const { service, user, clock, failures } = ctx;
    const { code } = await enable(ctx);
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: code() })).toBe(
      'failed',
    ); // the confirming step
    clock.now += 30_000;
    const current = code();
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'sendout', code: current })).toBe(
      'passed',
    );
    clock.now += 29_000; // still the same step
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: current })).toBe(
      'failed',
    );
    clock.now += 1_000;
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: code() })).toBe(
      'passed',
    );
    expect(failures).toEqual(['buyer@example.com', 'buyer@example.com']);
  });

  it('takes each recovery code once, typed any way', async () => {
    const ctx = await setup();
    const { service, user, person } = ctx;
    const { recoveryCodes } = await enable(ctx);
    const [first = '', second = ''] = recoveryCodes;
    expect(
      await service.verify(systemContext('test'), {
        userId: user.id,
        purpose: 'login',
        code: first.toUpperCase().replace('-', ' '),
      }),
    ).toBe('passed');
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: first })).toBe(
      'failed',
    );
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: second })).toBe(
      'passed',
    );
    expect((await service.status(person)).recoveryCodesLeft).toBe(8);
  });

  it('asks only for the purposes that are on; a missing code fails without counting', async () => {
    const ctx = await setup();
    const { service, user, person, clock, failures } = ctx;
    const { code } = await enable(ctx);
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('failed');
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '  ' })).toBe(
      'failed',
    );
    expect(failures).toEqual([]);

    clock.now += 30_000;
    expect(
      await service.updatePurposes(person, { purposes: { login: false, sendout: true, release: false }, code: code() }),
    ).toMatchObject({
      state: 'enabled',
      login: false,
      sendout: true,
      release: false,
    });
    expect(await service.purposes(systemContext('test'), { userId: user.id })).toEqual({
      login: false,
      sendout: true,
      release: false,
    });
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('disabled');
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: 'anything' })).toBe(
      'disabled',
    );
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'sendout' })).toBe('failed');

    clock.now += 30_000;
    expect(
      await codeOf(() =>
        service.updatePurposes(person, { purposes: { login: false, sendout: false, release: false }, code: code() }),
      ),
    ).toBe('ERROR_INPUT_VALIDATION');
    expect(
      await codeOf(() =>
        service.updatePurposes(person, { purposes: { login: true, sendout: true, release: true }, code: '000000' }),
      ),
    ).toBe('ERROR_INPUT_VALIDATION');
    expect(failures).toHaveLength(1);
  });

  it('stops checking codes once the throttle says so', async () => {
    const testDb = await createTestDb();
    cleanups.push(testDb.close);
    const service = createTwoFactorService({
      db: testDb.db,
      now: () => T0,
      throttle: {
        async reserveCode() {
          throw new AppError('RATE_LIMITED', 'Too many failed attempts.');
        },
        async succeeded() {},
        failed: async () => 0,
      },
    });
    const { user, person } = await buyerSignedIn(testDb.db, T0);
    const { secret } = await service.setup(person);
    await service.confirm(person, { code: generateSync({ secret, epoch: T0 / 1000 }) }); // confirming is not throttled
    expect(await service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('failed'); // nor is asking for a code
    expect(
      await codeOf(() => service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '123456' })),
    ).toBe('RATE_LIMITED');
  });
});
