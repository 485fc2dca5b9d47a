import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { systemContext } from '../../server/services/context.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { keyIdOf } from '../../server/services/statements/signature.ts';
import { createStatementsService } from '../../server/services/statements/statements.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The statements' monthly job and key (issue 24; docs/decisions/147-signed-statements.md): the
// job closes last month once it ended and settled, once across runs and processes, and tells each
// person with money on the platform that their statement is ready; the key is the configuration's,
// else one the first process stored, which every later process (or restart) signs with.

const OCT_10 = Date.UTC(2026, 9, 10, 9);
let t: TestApp;
afterEach(() => t?.close());

const inboxOf = async (userId: number) =>
  t.db.sql.all<{ type: string; link: string; messageTk: string }>(
    'SELECT type, link, message_tk AS messageTk FROM notifications WHERE user_id = ? ORDER BY id',
    [userId],
  );

/** Another process over the same database: a second statements service, as a restart or a second machine builds it. */
const anotherProcess = (settings = {}) =>
  createStatementsService({
    db: t.db,
    settings,
    issuer: () => 'http://localhost',
    now: () => t.clock.now,
    notify: t.services.notifications.notify,
    log: { info: () => {}, error: () => {} },
  });

describe('the monthly job', () => {
  it('closes last month once it settled, tells people with money once, and lists the month', async () => {
    t = await createTestApp({ clock: { now: OCT_10 } });
    const funded = await createUser(t, { funded: { USDT: 2_000_000 } });
    const penniless = await createUser(t);
    // Money in and all of it out before October: nothing to state for October.
    t.clock.now = Date.UTC(2026, 7, 3);
    const emptied = await createUser(t, { funded: { BTC: 50_000 } });
    await t.services.ledger.post(systemContext('test'), {
      kind: 'sendout',
      idempotencyKey: 'emptied-out',
      legs: [
        { account: walletOf(emptied.id, 'BTC'), amount: -50_000 },
        { account: systemAccount('chain_out', 'BTC'), amount: 50_000 },
      ],
    });
    // Four minutes into November: October has ended but not settled.
    t.clock.now = Date.UTC(2026, 10, 1, 0, 4);
    expect(await t.services.statements.runMonthlyJob()).toEqual({ notified: 0 });
    t.clock.now = Date.UTC(2026, 10, 1, 0, 10);
    const run = await t.services.statements.runMonthlyJob();
    expect(run.closed).toBe('2026-10');
    expect(run.notified).toBeGreaterThanOrEqual(1);
    expect(await inboxOf(funded.id)).toEqual([
      { type: 'statement_ready', link: '/wallet', messageTk: 'notifications.msg.statement_ready' },
    ]);
    expect(await inboxOf(penniless.id)).toEqual([]);
    expect(await inboxOf(emptied.id)).toEqual([]);
    // Again, and from another process: nothing closed twice, nobody told twice.
    expect(await t.services.statements.runMonthlyJob()).toEqual({ notified: 0 });
    expect(await anotherProcess().runMonthlyJob()).toEqual({ notified: 0 });
    expect(await inboxOf(funded.id)).toHaveLength(1);

    const list = await (await funded.session()).get('/rest/v1/statements');
    expect(list.status).toBe(200);
    expect((await list.json()).data.months).toEqual([{ period: '2026-10', readyAt: '2026-11-01T00:10:00.000Z' }]);
    const inbox = await (await funded.session()).get('/rest/v1/notifications');
    expect(JSON.stringify(await inbox.json())).toContain('Your signed account statement for 2026-10 is ready');
  });

  it('continues a run that stopped half way where it stopped', async () => {
    t = await createTestApp({ clock: { now: OCT_10 } });
    const first = await createUser(t, { funded: { BTC: 10 } });
    const second = await createUser(t, { funded: { BTC: 20 } });
    t.clock.now = Date.UTC(2026, 10, 2);
    // A leader that closed the month and told everyone up to the first person, then died.
    await t.db.sql.run('INSERT INTO statement_months (period, ready_at, notified_through) VALUES (?, ?, ?)', [
      '2026-10',
      t.clock.now,
      first.id,
    ]);
    const run = await t.services.statements.runMonthlyJob();
    expect(run.closed).toBeUndefined();
    expect(await inboxOf(first.id)).toEqual([]);
    expect((await inboxOf(second.id)).map((row) => row.type)).toEqual(['statement_ready']);
  });
});

describe('the statement key', () => {
  it('is made once and kept: a restart and a second process sign with the same key', async () => {
    t = await createTestApp();
    const { keyId, source } = await t.services.statements.keyInfo();
    expect(source).toBe('database');
    expect(await anotherProcess().keyInfo()).toEqual({ keyId, source: 'database' });
    const stored = await t.db.sql.all<{ purpose: string }>('SELECT purpose FROM signing_keys');
    expect(stored).toEqual([{ purpose: 'statements' }]);
  });

  it('two processes asking at once end up with one key', async () => {
    t = await createTestApp();
    const ids = await Promise.all([anotherProcess().keyInfo(), anotherProcess().keyInfo(), anotherProcess().keyInfo()]);
    expect(new Set(ids.map((info) => info.keyId)).size).toBe(1);
  });

  it('is the configuration’s when it names one (PEM or seed), and nothing is stored', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    t = await createTestApp({ config: { STATEMENT_KEY: pem.replaceAll('\n', '\\n') } });
    const published = await (await t.send('/.well-known/coinfair-statement-key')).json();
    expect(published.keys[0].kid).toBe(keyIdOf(privateKey));
    expect(await t.services.statements.keyInfo()).toEqual({ keyId: keyIdOf(privateKey), source: 'configuration' });
    expect(await t.db.sql.all('SELECT purpose FROM signing_keys')).toEqual([]);
    // RFC 8032's first test vector, as a seed: its public key is known.
    const seeded = anotherProcess({
      STATEMENT_KEY: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    });
    const body = await seeded.publishedKeys();
    expect(Buffer.from(body.keys[0]?.x ?? '', 'base64url').toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
  });
});

describe('notifications of the job', () => {
  it('render in the reader’s language', async () => {
    t = await createTestApp({ clock: { now: OCT_10 } });
    const person = await createUser(t, { funded: { BTC: 5 } });
    t.clock.now = Date.UTC(2026, 10, 3);
    await t.services.statements.runMonthlyJob();
    const inbox = await (await person.session()).get('/rest/v1/notifications?locale=de');
    expect(JSON.stringify(await inbox.json())).toContain('Dein signierter Kontoauszug für 2026-10 ist bereit');
  });
});
