import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { browserSession, signedInSession } from '../support/browser-session.ts';
import { auditRowsOf, OPERATORS, operatorWithFactor, post } from '../support/operators.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The operator console's API on people (issue 25, "Act"): finding a person, their file, and each
// action with its effect, its audit row and its refusals, on both engines.

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const json = async (res: Response) => (await res.json()) as { data: any; meta?: any };

async function setup() {
  t = await createTestApp();
  const admin = await operatorWithFactor(t);
  const target = await createUser(t, { verified: 'phone', funded: { BTC: 150_000 } });
  return { admin, target };
}

const statusOf = async (publicId: string) =>
  (await t.db.sql.get<{ status: string }>('SELECT status FROM users WHERE public_id = ?', [publicId]))?.status;

describe('finding a person and reading the file', () => {
  it('finds by e-mail, username or public id (exact), for administrators and moderators', async () => {
    const { admin, target } = await setup();
    const moderator = await signedInSession(t, 'moderator@example.com');
    for (const q of [target.email.toUpperCase(), target.username.toUpperCase(), target.publicId]) {
      for (const who of [admin.browser, moderator]) {
        const res = await who.get(`${OPERATORS}/people?q=${encodeURIComponent(q)}`);
        expect(res.status, q).toBe(200);
        expect((await json(res)).data).toEqual([
          expect.objectContaining({ publicId: target.publicId, username: target.username, status: 'active' }),
        ]);
      }
    }
    expect((await json(await admin.browser.get(`${OPERATORS}/people?q=nobody-here`))).data).toEqual([]);
    const empty = await admin.browser.get(`${OPERATORS}/people?q=%20`);
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'q' });
  });

  it('gives administrators the whole file and moderators all but devices, sessions and ledger', async () => {
    const { admin, target } = await setup();
    await target.session();
    const file = (await json(await admin.browser.get(`${OPERATORS}/people/${target.publicId}`))).data;
    expect(file.person).toMatchObject({ publicId: target.publicId, email: target.email, twoFactor: false });
    expect(file.verification).toMatchObject({ email: true, phone: true, level: 2, identityVerifiedAt: null });
    expect(file.verification.limits.limitUsdCents).toBeGreaterThan(0);
    expect(file.balances).toEqual([{ account: 'user_wallet', minor: 150_000, amount: '0.00150000', currency: 'BTC' }]);
    expect(file.sessions).toHaveLength(1);
    expect(file.ledger).toEqual([expect.objectContaining({ kind: 'deposit', minor: 150_000, currency: 'BTC' })]);
    expect(file).toHaveProperty('devices');
    expect(file.trades).toEqual([]);
    expect(file.disputes).toEqual([]);

    const moderator = await signedInSession(t, 'moderator@example.com');
    const seen = (await json(await moderator.get(`${OPERATORS}/people/${target.publicId}`))).data;
    expect(seen.person.publicId).toBe(target.publicId);
    expect(seen.balances).toEqual(file.balances);
    for (const hidden of ['devices', 'sessions', 'ledger']) expect(seen).not.toHaveProperty(hidden);

    const unknown = await admin.browser.get(`${OPERATORS}/people/usr_AAAAAAAAAAAAAAAA`);
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
  });

  it('refuses ordinary people, suspended staff and visitors', async () => {
    const { target } = await setup();
    const buyer = await signedInSession(t, 'buyer@example.com');
    const refused = await buyer.get(`${OPERATORS}/people/${target.publicId}`);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only moderators and administrators may use the operator console.',
    });
    const suspendedAdmin = await createUser(t, { role: 'admin', status: 'suspended' });
    expect((await (await suspendedAdmin.session()).get(`${OPERATORS}/people?q=x`)).status).toBe(403);
    const visitor = await browserSession(t).get(`${OPERATORS}/people?q=${target.publicId}`);
    expect(visitor.status).toBe(401);
    expect(await errorOf(visitor)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('acting on a person', () => {
  it('bans with a reason and a code: sessions end, the audit row names who, what, why and the request', async () => {
    const { admin, target } = await setup();
    const victim = await target.session();
    const res = await post(admin.browser, `/people/${target.publicId}/ban`, {
      reason: '  Fraud ring, ticket 4411  ',
      code: admin.code(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).data).toMatchObject({
      action: 'ban',
      changed: true,
      sessionsEnded: 1,
      person: { publicId: target.publicId, status: 'banned' },
    });
    expect(await statusOf(target.publicId)).toBe('banned');
    expect((await victim.get('/rest/v1/users/me')).status).toBe(401);
    const adminId = (
      await t.db.sql.get<{ id: string }>("SELECT public_id AS id FROM users WHERE email = 'admin@example.com'")
    )?.id;
    expect(await auditRowsOf(t, target.publicId)).toEqual([
      {
        actorType: 'user',
        actorId: adminId,
        actorName: 'admin',
        action: 'ban',
        outcome: 'done',
        reason: 'Fraud ring, ticket 4411',
        details: JSON.stringify({ changed: true, sessionsEnded: 1 }),
        requestId: 'req-operator-test',
      },
    ]);
  });

  it('suspends, reinstates and ends sessions, each through the same account action', async () => {
    const { admin, target } = await setup();
    await target.session();
    const act = (path: string) =>
      post(admin.browser, `/people/${target.publicId}/${path}`, { reason: 'Checks', code: admin.code() });
    expect((await json(await act('suspend'))).data).toMatchObject({
      sessionsEnded: 1,
      person: { status: 'suspended' },
    });
    expect((await json(await act('reinstate'))).data).toMatchObject({ changed: true, person: { status: 'active' } });
    expect((await json(await act('reinstate'))).data).toMatchObject({ changed: false });
    await target.session();
    await target.session();
    expect((await json(await act('end-sessions'))).data).toMatchObject({
      sessionsEnded: 2,
      person: { status: 'active' },
    });
    expect((await auditRowsOf(t, target.publicId)).map((row) => row.action)).toEqual([
      'suspend',
      'reinstate',
      'reinstate',
      'end_sessions',
    ]);
  });

  it('resets the second factor and verifies identity and address, telling the person', async () => {
    const { admin } = await setup();
    const person = await operatorWithFactor(t, 'buyer@example.com');
    const buyerId = (
      await t.db.sql.get<{ id: string }>("SELECT public_id AS id FROM users WHERE email = 'buyer@example.com'")
    )?.id as string;
    const reset = await post(admin.browser, `/people/${buyerId}/reset-two-factor`, {
      reason: 'Lost phone',
      code: admin.code(),
    });
    expect((await json(reset)).data).toMatchObject({ changed: true, sessionsEnded: 1 });
    expect((await person.browser.get('/rest/v1/users/me')).status).toBe(401);
    expect(
      await t.db.sql.get('SELECT 1 AS n FROM two_factor f JOIN users u ON u.id = f.user_id WHERE u.public_id = ?', [
        buyerId,
      ]),
    ).toBeUndefined();

    const identity = await post(admin.browser, `/people/${buyerId}/verify-identity`, {
      reason: 'Passport seen on a video call',
      code: admin.code(),
      full_name: '  ada   lovelace ',
    });
    expect(identity.status, await identity.clone().text()).toBe(200);
    const address = await post(admin.browser, `/people/${buyerId}/verify-address`, {
      reason: 'Utility bill',
      code: admin.code(),
    });
    expect(address.status).toBe(200);
    const row = await t.db.sql.get<{ idAt: number | null; addressAt: number | null; fullName: string }>(
      'SELECT id_verified_at AS idAt, address_verified_at AS addressAt, full_name AS fullName FROM users WHERE public_id = ?',
      [buyerId],
    );
    expect(row?.idAt).toEqual(expect.any(Number));
    expect(row?.addressAt).toEqual(expect.any(Number));
    expect(row?.fullName).toBe('ada lovelace');
    const notices = await t.db.sql.all<{ type: string; link: string }>(
      `SELECT n.type, n.link FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.public_id = ? AND n.type = 'verification_reviewed'`,
      [buyerId],
    );
    expect(notices.length).toBeGreaterThanOrEqual(1);
    expect(notices[0]?.link).toBe('/verification');
    const badName = await post(admin.browser, `/people/${buyerId}/verify-identity`, {
      reason: 'x',
      code: admin.code(),
      full_name: '1',
    });
    expect(badName.status).toBe(400);
    expect(await errorOf(badName)).toMatchObject({ field: 'full_name' });
  });

  it('needs a reason: missing or blank is 400 on reason, and nothing changes', async () => {
    const { admin, target } = await setup();
    for (const body of [
      { code: admin.code() },
      { reason: '   ', code: admin.code() },
      { reason: 'x'.repeat(501), code: admin.code() },
    ]) {
      const res = await post(admin.browser, `/people/${target.publicId}/ban`, body);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'ERROR_INPUT_VALIDATION', field: 'reason' });
    }
    expect(await statusOf(target.publicId)).toBe('active');
    expect(await auditRowsOf(t, target.publicId)).toEqual([]);
  });

  it('needs the second factor: missing, wrong or not set up is refused and the refusal is audited', async () => {
    const { admin, target } = await setup();
    const missing = await post(admin.browser, `/people/${target.publicId}/suspend`, { reason: 'Checks' });
    expect(missing.status).toBe(401);
    expect(await errorOf(missing)).toMatchObject({ code: 'TWO_FACTOR_REQUIRED', field: 'code' });
    const wrong = await post(admin.browser, `/people/${target.publicId}/suspend`, {
      reason: 'Checks',
      code: admin.wrongCode(),
    });
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toMatchObject({ code: 'TWO_FACTOR_INVALID', field: 'code' });
    const other = await createUser(t, { role: 'admin' });
    const noFactor = await post(await other.signIn(), `/people/${target.publicId}/suspend`, {
      reason: 'Checks',
      code: '123456',
    });
    expect(noFactor.status).toBe(409);
    expect(await errorOf(noFactor)).toMatchObject({ code: 'TWO_FACTOR_NOT_ENABLED' });
    expect(await statusOf(target.publicId)).toBe('active');
    const rows = await auditRowsOf(t, target.publicId);
    expect(
      rows.map((row) => [row.action, row.outcome, JSON.parse(row.details ?? '{}').refused, row.actorName]),
    ).toEqual([
      ['suspend', 'refused', 'two_factor_required', 'admin'],
      ['suspend', 'refused', 'two_factor_invalid', 'admin'],
      ['suspend', 'refused', 'two_factor_not_enabled', other.username],
    ]);
  });

  it('is for administrators only: moderators, ordinary people and visitors are refused before anything', async () => {
    const { admin, target } = await setup();
    const moderator = await operatorWithFactor(t, 'moderator@example.com');
    const byModerator = await post(moderator.browser, `/people/${target.publicId}/ban`, {
      reason: 'x',
      code: moderator.code(),
    });
    expect(byModerator.status).toBe(403);
    expect(await errorOf(byModerator)).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('Only administrators'),
    });
    const buyer = await signedInSession(t, 'buyer@example.com');
    const byBuyer = await post(buyer, `/people/${target.publicId}/ban`, { reason: 'x' });
    expect(await errorOf(byBuyer)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only moderators and administrators may use the operator console.',
    });
    expect((await post(browserSession(t), `/people/${target.publicId}/ban`, { reason: 'x' })).status).toBe(401);
    const unknown = await post(admin.browser, '/people/usr_AAAAAAAAAAAAAAAA/ban', { reason: 'x', code: admin.code() });
    expect(unknown.status).toBe(404);
    const adminId = (
      await t.db.sql.get<{ id: string }>("SELECT public_id AS id FROM users WHERE email = 'admin@example.com'")
    )?.id;
    const self = await post(admin.browser, `/people/${adminId}/reinstate`, { reason: 'x', code: admin.code() });
    expect(self.status).toBe(403);
    expect(await statusOf(target.publicId)).toBe('active');
    expect(await auditRowsOf(t, target.publicId)).toEqual([]);
  });
});
