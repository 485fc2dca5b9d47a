import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../db/client.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { verifyLedger } from '../../server/services/ledger/invariants.ts';
import { createLedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { createSqliteTestDb } from '../support/test-db.ts';

// A crash in the middle of money moving (issue 5): the built server converts under load, is
// killed with SIGKILL, and starts again on the same database file. Every conversion it
// acknowledged must be there, and the ledger's invariants must hold; nothing half-written.

const root = join(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

function start(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', `import('./build/app/main.js').then((m) => m.main('build'))`], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, AUTH_CHALLENGE: 'off', DEMO_DATA: 'on' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 30_000);
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${out}`)));
  });
}

describe('a crash during conversions', () => {
  it('keeps every acknowledged conversion and the invariants after SIGKILL and a restart', async () => {
    const testDb = createSqliteTestDb();
    const buyer = (
      testDb.db.$client.prepare(`SELECT id FROM users WHERE email = 'buyer@example.com'`).get() as {
        id: number;
      }
    ).id;
    await createLedgerService({
      repo: createLedgerRepository(testDb.db),
      bus: createInProcessBus(),
      now: Date.now,
    }).post(
      { actor: { type: 'system', name: 'test' } },
      {
        kind: 'deposit',
        idempotencyKey: 'crash-test:fund',
        legs: [
          { account: systemAccount('chain_in', 'USDT'), amount: -100_000_000_000 },
          { account: walletOf(buyer, 'USDT'), amount: 100_000_000_000 },
        ],
      },
    );
    testDb.db.$client.pragma('wal_checkpoint(TRUNCATE)');
    closeDatabase(testDb.db);

    const first = await start(testDb.path);
    const csrf = 'c'.repeat(43);
    const login = await fetch(`${first.url}/rest/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${csrf}`, 'x-csrf-token': csrf },
      body: JSON.stringify({ email: 'buyer@example.com', password: 'Coinfair-demo-2026!' }),
    });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
    const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
    const headers = {
      'content-type': 'application/json',
      cookie: cookies.join('; '),
      'x-csrf-token': token,
      origin: first.url,
    };
    const quote = (
      (await (await fetch(`${first.url}/rest/v1/crypto-fiat-rates?camelCase=1`)).json()) as {
        data: { quoteId: string };
      }
    ).data.quoteId;

    // Eight clients convert as fast as they can; the server dies under them once 60 conversions
    // were acknowledged (however long that takes on a loaded machine: this is not a benchmark).
    const acknowledged: string[] = [];
    let stop = false;
    let next = 0;
    const client = async () => {
      while (!stop) {
        const orderId = `crash-${next++}`;
        try {
          const res = await fetch(`${first.url}/rest/v1/hedging/convert`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              from_crypto_currency_code: 'USDT',
              to_crypto_currency_code: 'BTC',
              amount: '10',
              quote_id: quote,
              order_id: orderId,
            }),
          });
          if (res.status === 200) acknowledged.push(orderId);
          else await res.body?.cancel();
        } catch {
          // The connection died with the server: this one was never acknowledged.
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 60 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    stop = true;
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThan(50);

    // The same file after the crash: a restart recovers it (WAL) and serves again.
    const second = await start(testDb.path);
    const health = await fetch(`${second.url}/healthz`);
    expect(health.status).toBe(200);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));

    const db = openDatabase(testDb.path);
    try {
      const present = db.$client.prepare('SELECT 1 FROM ledger_transactions WHERE idempotency_key = ?').pluck();
      const missing = acknowledged.filter((orderId) => present.get(`conversion:${buyer}:${orderId}`) === undefined);
      expect(missing).toEqual([]);
      expect(await verifyLedger(db)).toEqual([]);
      // Every conversion that is in the ledger moved exactly 10 USDT: none half-written.
      const conversions = db.$client
        .prepare(`SELECT count(*) FROM ledger_transactions WHERE kind = 'conversion'`)
        .pluck()
        .get() as number;
      const usdt = db.$client
        .prepare(
          `SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = 'USDT'`,
        )
        .pluck()
        .get(buyer) as number;
      expect(usdt).toBe(100_000_000_000 - conversions * 10_000_000);
      expect(conversions).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      closeDatabase(db);
      for (const suffix of ['', '-wal', '-shm']) {
        await import('node:fs').then((fs) => fs.rmSync(`${testDb.path}${suffix}`, { force: true }));
      }
    }
  });
});
