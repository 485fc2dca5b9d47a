import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { AppError } from '../../server/services/errors.ts';
import { createTwoFactorService } from '../../server/services/two-factor/two-factor.ts';
import { createTestDb } from '../support/test-db.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The service over a fresh database, a clock the test moves and a throttle that only counts. */
function setup() {
  const testDb = createTestDb();
  cleanups.push(testDb.close);
  const clock = { now: T0 };
  const failures: string[] = [];
  const service = createTwoFactorService({
    db: testDb.db,
    now: () => clock.now,
    throttle: {
      reserveCode: (email) => ({ ids: [], accountKey: email }),
      succeeded() {},
      failed: (attempt) => failures.push(attempt.accountKey),
    },
  });
  const user = createAccountsRepository(testDb.db).userByEmail('buyer@example.com');
  if (!user) throw new Error('the seed has no buyer@example.com');
  return { service, clock, failures, user };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return undefined;
}

/** Setup and confirmation at the current clock; the confirming step is then used. */
function enable({ service, clock, user }: ReturnType<typeof setup>) {
  const { secret } = service.setup(user);
  const code = () => generateSync({ secret, epoch: Math.floor(clock.now / 1000) });
  const { recoveryCodes } = service.confirm(user, code());
  return { secret, code, recoveryCodes };
}

describe('two-factor service', () => {
  it('walks the states: initial, verification, enabled, disabled', () => {
    const ctx = setup();
    const { service, user, clock } = ctx;
    expect(service.status(user)).toEqual({
      state: 'initial',
      login: false,
      sendout: false,
      release: false,
      recoveryCodesLeft: 0,
    });
    const first = service.setup(user);
    const second = service.setup(user); // a new scan replaces a pending secret
    expect(second.secret).not.toBe(first.secret);
    expect(service.status(user).state).toBe('verification');
    expect(service.verify(user.id, 'login', '000000')).toBe('disabled'); // pending protects nothing
    const stale = generateSync({ secret: first.secret, epoch: T0 / 1000 });
    expect(codeOf(() => service.confirm(user, stale))).toBe('ERROR_INPUT_VALIDATION');

    const code = generateSync({ secret: second.secret, epoch: T0 / 1000 });
    expect(service.confirm(user, code).recoveryCodes).toHaveLength(10);
    expect(service.status(user)).toEqual({
      state: 'enabled',
      login: true,
      sendout: true,
      release: true,
      recoveryCodesLeft: 10,
    });
    expect(codeOf(() => service.setup(user))).toBe('TWO_FACTOR_ALREADY_ENABLED');
    expect(codeOf(() => service.confirm(user, code))).toBe('TWO_FACTOR_ALREADY_ENABLED');

    clock.now += 30_000;
    const next = generateSync({ secret: second.secret, epoch: clock.now / 1000 });
    expect(service.disable(user, next)).toMatchObject({ state: 'disabled', login: false });
    expect(service.verify(user.id, 'release', next)).toBe('disabled');
    expect(codeOf(() => service.disable(user, next))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(codeOf(() => service.confirm(user, next))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(service.setup(user).secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(service.status(user).state).toBe('verification');
  });

  it('spends each time step once: the confirming code, a replay and an older step all fail', () => {
    const ctx = setup();
    const { service, user, clock, failures } = ctx;
    const { code } = enable(ctx);
    expect(service.verify(user.id, 'login', code())).toBe('failed'); // the confirming step
    clock.now += 30_000;
    const current = code();
    expect(service.verify(user.id, 'sendout', current)).toBe('passed');
    clock.now += 29_000; // still the same step
    expect(service.verify(user.id, 'release', current)).toBe('failed');
    clock.now += 1_000;
    expect(service.verify(user.id, 'login', code())).toBe('passed');
    expect(failures).toEqual(['buyer@example.com', 'buyer@example.com']);
  });

  it('takes each recovery code once, typed any way', () => {
    const ctx = setup();
    const { service, user } = ctx;
    const { recoveryCodes } = enable(ctx);
    const [first = '', second = ''] = recoveryCodes;
    expect(service.verify(user.id, 'login', first.toUpperCase().replace('-', ' '))).toBe('passed');
    expect(service.verify(user.id, 'login', first)).toBe('failed');
    expect(service.verify(user.id, 'release', second)).toBe('passed');
    expect(service.status(user).recoveryCodesLeft).toBe(8);
  });

  it('asks only for the purposes that are on; a missing code fails without counting', () => {
    const ctx = setup();
    const { service, user, clock, failures } = ctx;
    const { code } = enable(ctx);
    expect(service.verify(user.id, 'login')).toBe('failed');
    expect(service.verify(user.id, 'login', '  ')).toBe('failed');
    expect(failures).toEqual([]);

    clock.now += 30_000;
    expect(service.updatePurposes(user, { login: false, sendout: true, release: false }, code())).toMatchObject({
      state: 'enabled',
      login: false,
      sendout: true,
      release: false,
    });
    expect(service.purposes(user.id)).toEqual({ login: false, sendout: true, release: false });
    expect(service.verify(user.id, 'login')).toBe('disabled');
    expect(service.verify(user.id, 'release', 'anything')).toBe('disabled');
    expect(service.verify(user.id, 'sendout')).toBe('failed');

    clock.now += 30_000;
    expect(codeOf(() => service.updatePurposes(user, { login: false, sendout: false, release: false }, code()))).toBe(
      'ERROR_INPUT_VALIDATION',
    );
    expect(codeOf(() => service.updatePurposes(user, { login: true, sendout: true, release: true }, '000000'))).toBe(
      'ERROR_INPUT_VALIDATION',
    );
    expect(failures).toHaveLength(1);
  });

  it('stops checking codes once the throttle says so', () => {
    const testDb = createTestDb();
    cleanups.push(testDb.close);
    const service = createTwoFactorService({
      db: testDb.db,
      now: () => T0,
      throttle: {
        reserveCode() {
          throw new AppError('RATE_LIMITED', 'Too many failed attempts.');
        },
        succeeded() {},
        failed: () => 0,
      },
    });
    const user = createAccountsRepository(testDb.db).userByEmail('buyer@example.com');
    if (!user) throw new Error('no buyer');
    const { secret } = service.setup(user);
    service.confirm(user, generateSync({ secret, epoch: T0 / 1000 })); // confirming is not throttled
    expect(service.verify(user.id, 'login')).toBe('failed'); // nor is asking for a code
    expect(codeOf(() => service.verify(user.id, 'login', '123456'))).toBe('RATE_LIMITED');
  });
});
