import { generateSync } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createSessionService } from '../../server/services/accounts/sessions.ts';
import { personContext, systemContext } from '../../server/services/context.ts';
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
  const { user, person } = buyerSignedIn(testDb.db, clock.now);
  return { service, clock, failures, user, person };
}

/** The seed's buyer with a fresh session: the context the settings routes hand the service. */
function buyerSignedIn(db: ReturnType<typeof createTestDb>['db'], now: number) {
  const accounts = createAccountsRepository(db);
  const user = accounts.userByEmail('buyer@example.com');
  if (!user) throw new Error('the seed has no buyer@example.com');
  const sessions = createSessionService({ repo: accounts, now: () => now });
  const { token } = sessions.create(systemContext('test'), {
    userId: user.id,
    client: { ip: '127.0.0.1', userAgent: 'test' },
  });
  const auth = sessions.validate(token);
  if (!auth) throw new Error('the session did not validate');
  return { user, person: personContext(auth) };
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
function enable({ service, clock, person }: ReturnType<typeof setup>) {
  const { secret } = service.setup(person);
  const code = () => generateSync({ secret, epoch: Math.floor(clock.now / 1000) });
  const { recoveryCodes } = service.confirm(person, { code: code() });
  return { secret, code, recoveryCodes };
}

describe('two-factor service', () => {
  it('walks the states: initial, verification, enabled, disabled', () => {
    const ctx = setup();
    const { service, user, person, clock } = ctx;
    expect(service.status(person)).toEqual({
      state: 'initial',
      login: false,
      sendout: false,
      release: false,
      recoveryCodesLeft: 0,
    });
    const first = service.setup(person);
    const second = service.setup(person); // a new scan replaces a pending secret
    expect(second.secret).not.toBe(first.secret);
    expect(service.status(person).state).toBe('verification');
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '000000' })).toBe(
      'disabled',
    ); // pending protects nothing
    const stale = generateSync({ secret: first.secret, epoch: T0 / 1000 });
    expect(codeOf(() => service.confirm(person, { code: stale }))).toBe('ERROR_INPUT_VALIDATION');

    const code = generateSync({ secret: second.secret, epoch: T0 / 1000 });
    expect(service.confirm(person, { code }).recoveryCodes).toHaveLength(10);
    expect(service.status(person)).toEqual({
      state: 'enabled',
      login: true,
      sendout: true,
      release: true,
      recoveryCodesLeft: 10,
    });
    expect(codeOf(() => service.setup(person))).toBe('TWO_FACTOR_ALREADY_ENABLED');
    expect(codeOf(() => service.confirm(person, { code }))).toBe('TWO_FACTOR_ALREADY_ENABLED');

    clock.now += 30_000;
    const next = generateSync({ secret: second.secret, epoch: clock.now / 1000 });
    expect(service.disable(person, { code: next })).toMatchObject({ state: 'disabled', login: false });
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: next })).toBe('disabled');
    expect(codeOf(() => service.disable(person, { code: next }))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(codeOf(() => service.confirm(person, { code: next }))).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(service.setup(person).secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(service.status(person).state).toBe('verification');
  });

  it('spends each time step once: the confirming code, a replay and an older step all fail', () => {
    const ctx = setup();
    const { service, user, clock, failures } = ctx;
    const { code } = enable(ctx);
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: code() })).toBe('failed'); // the confirming step
    clock.now += 30_000;
    const current = code();
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'sendout', code: current })).toBe(
      'passed',
    );
    clock.now += 29_000; // still the same step
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: current })).toBe(
      'failed',
    );
    clock.now += 1_000;
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: code() })).toBe('passed');
    expect(failures).toEqual(['buyer@example.com', 'buyer@example.com']);
  });

  it('takes each recovery code once, typed any way', () => {
    const ctx = setup();
    const { service, user, person } = ctx;
    const { recoveryCodes } = enable(ctx);
    const [first = '', second = ''] = recoveryCodes;
    expect(
      service.verify(systemContext('test'), {
        userId: user.id,
        purpose: 'login',
        code: first.toUpperCase().replace('-', ' '),
      }),
    ).toBe('passed');
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: first })).toBe('failed');
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: second })).toBe('passed');
    expect(service.status(person).recoveryCodesLeft).toBe(8);
  });

  it('asks only for the purposes that are on; a missing code fails without counting', () => {
    const ctx = setup();
    const { service, user, person, clock, failures } = ctx;
    const { code } = enable(ctx);
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('failed');
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '  ' })).toBe('failed');
    expect(failures).toEqual([]);

    clock.now += 30_000;
    expect(
      service.updatePurposes(person, { purposes: { login: false, sendout: true, release: false }, code: code() }),
    ).toMatchObject({
      state: 'enabled',
      login: false,
      sendout: true,
      release: false,
    });
    expect(service.purposes(systemContext('test'), { userId: user.id })).toEqual({
      login: false,
      sendout: true,
      release: false,
    });
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('disabled');
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'release', code: 'anything' })).toBe(
      'disabled',
    );
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'sendout' })).toBe('failed');

    clock.now += 30_000;
    expect(
      codeOf(() =>
        service.updatePurposes(person, { purposes: { login: false, sendout: false, release: false }, code: code() }),
      ),
    ).toBe('ERROR_INPUT_VALIDATION');
    expect(
      codeOf(() =>
        service.updatePurposes(person, { purposes: { login: true, sendout: true, release: true }, code: '000000' }),
      ),
    ).toBe('ERROR_INPUT_VALIDATION');
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
    const { user, person } = buyerSignedIn(testDb.db, T0);
    const { secret } = service.setup(person);
    service.confirm(person, { code: generateSync({ secret, epoch: T0 / 1000 }) }); // confirming is not throttled
    expect(service.verify(systemContext('test'), { userId: user.id, purpose: 'login' })).toBe('failed'); // nor is asking for a code
    expect(
      codeOf(() => service.verify(systemContext('test'), { userId: user.id, purpose: 'login', code: '123456' })),
    ).toBe('RATE_LIMITED');
  });
});
