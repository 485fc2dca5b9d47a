import { userInfo } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { userCommands } from '../../server/admin/user-commands.ts';
import { signedInSession } from '../support/browser-session.ts';
import { OPERATORS, operatorWithFactor, post } from '../support/operators.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The operators' audit log (issue 25): append-only in the database itself (triggers on both
// engines refuse UPDATE and DELETE, whatever the code does), written by the console and by
// `npm run admin`, and read by administrators page by page, by operator and by target.

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const json = async (res: Response) => (await res.json()) as { data: any; meta?: any };

describe('the audit log', () => {
  it('refuses UPDATE and DELETE straight on the table, on this engine', async () => {
    t = await createTestApp();
    await t.db.sql.run(
      `INSERT INTO operator_audit (actor_type, actor_name, action, outcome, target_type, target_id, created_at)
       VALUES ('cli', 'root', 'ban', 'done', 'user', 'usr_AAAAAAAAAAAAAAAA', 1)`,
    );
    await expect(t.db.sql.run("UPDATE operator_audit SET reason = 'rewritten'")).rejects.toThrow(/append-only/);
    await expect(t.db.sql.run("UPDATE operator_audit SET actor_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(t.db.sql.run('DELETE FROM operator_audit')).rejects.toThrow(/append-only/);
    const rows = await t.db.sql.all<{ reason: string | null; actorName: string }>(
      'SELECT reason, actor_name AS actorName FROM operator_audit',
    );
    expect(rows).toEqual([{ reason: null, actorName: 'root' }]);
  });

  it('keeps the CLI’s account changes (end-sessions and reset-2fa too), naming the operating-system user and the reason', async () => {
    t = await createTestApp();
    const person = await createUser(t);
    const commands = userCommands(t.db, () => t.clock.now);
    await commands.suspend(person.email, 'Chargebacks');
    await commands.reinstate(person.email);
    await commands.role(person.email, 'vendor', 'on');
    await person.session();
    expect(await commands.endSessions(person.email, 'Stolen laptop')).toBe(`${person.email}: 1 session(s) ended.`);
    expect(await commands.resetTwoFactor(person.email)).toBe(
      `${person.email}: no two-factor authentication to remove; nothing changed.`,
    );
    const admin = await operatorWithFactor(t);
    const res = await admin.browser.get(`${OPERATORS}/audit?target=${person.publicId}`);
    expect(res.status).toBe(200);
    const { data, meta } = await json(res);
    const name = userInfo().username;
    expect(data.map((row: any) => [row.action, row.reason, row.operator])).toEqual([
      ['reset_two_factor', null, { type: 'cli', id: null, name }],
      ['end_sessions', 'Stolen laptop', { type: 'cli', id: null, name }],
      ['role', null, { type: 'cli', id: null, name }],
      ['reinstate', null, { type: 'cli', id: null, name }],
      ['suspend', 'Chargebacks', { type: 'cli', id: null, name }],
    ]);
    expect(meta).toEqual({ page: 1, nextPageExist: false });
  });

  it('is read by administrators, newest first, by operator, target and action, a page at a time', async () => {
    t = await createTestApp();
    const admin = await operatorWithFactor(t);
    const adminId = (
      await t.db.sql.get<{ id: string }>("SELECT public_id AS id FROM users WHERE email = 'admin@example.com'")
    )?.id;
    const people = [await createUser(t), await createUser(t)];
    for (const person of people) {
      for (const action of ['suspend', 'reinstate']) {
        const res = await post(admin.browser, `/people/${person.publicId}/${action}`, {
          reason: 'Review',
          code: admin.code(),
        });
        expect(res.status).toBe(200);
      }
    }
    await userCommands(t.db, () => t.clock.now).ban((people[0] as { email: string }).email, 'From the shell');

    const mine = (await json(await admin.browser.get(`${OPERATORS}/audit?operator=${adminId}`))).data;
    expect(mine).toHaveLength(4);
    expect(mine[0]).toMatchObject({
      action: 'reinstate',
      outcome: 'done',
      operator: { type: 'user', id: adminId, name: 'admin' },
      target: { type: 'user', id: people[1]?.publicId },
      reason: 'Review',
      requestId: 'req-operator-test',
    });
    const cli = (await json(await admin.browser.get(`${OPERATORS}/audit?operator=cli`))).data;
    expect(cli.map((row: any) => [row.action, row.target.id])).toEqual([['ban', people[0]?.publicId]]);
    const suspends = (await json(await admin.browser.get(`${OPERATORS}/audit?action=suspend`))).data;
    expect(suspends).toHaveLength(2);
    const bad = await admin.browser.get(`${OPERATORS}/audit?operator=someone`);
    expect(bad.status).toBe(400);

    const moderator = await signedInSession(t, 'moderator@example.com');
    expect((await moderator.get(`${OPERATORS}/audit`)).status).toBe(403);
    const buyer = await signedInSession(t, 'buyer@example.com');
    expect((await buyer.get(`${OPERATORS}/audit`)).status).toBe(403);
  });

  it('pages by 50', async () => {
    t = await createTestApp();
    const values = Array.from(
      { length: 51 },
      (_, i) => `('cli', 'root', 'role', 'done', 'user', 'usr_BBBBBBBBBBBBBBBB', ${i + 1})`,
    ).join(', ');
    await t.db.sql.run(
      `INSERT INTO operator_audit (actor_type, actor_name, action, outcome, target_type, target_id, created_at)
       VALUES ${values}`,
    );
    const admin = await operatorWithFactor(t);
    const first = await json(await admin.browser.get(`${OPERATORS}/audit?target=usr_BBBBBBBBBBBBBBBB`));
    expect(first.data).toHaveLength(50);
    expect(first.meta).toEqual({ page: 1, nextPageExist: true });
    expect(first.data[0].at).toBe(51);
    const second = await json(await admin.browser.get(`${OPERATORS}/audit?target=usr_BBBBBBBBBBBBBBBB&page=2`));
    expect(second.data.map((row: any) => row.at)).toEqual([1]);
    expect(second.meta).toEqual({ page: 2, nextPageExist: false });
  });
});
