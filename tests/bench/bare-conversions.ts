// The baseline of the conversions benchmark: the same ledger transaction a conversion posts
// (wallet → desk in USDT, desk → wallet in BTC, idempotency key per order), written by the ledger
// service directly over the database file, as fast as one process can, for `seconds`.
// Prints `conversions <count> <seconds>`. A fourth argument NORMAL opens the file without waiting
// for the disk at each commit: what the durability of synchronous=FULL costs (issue 16).
import { openDatabase } from '../../db/client.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { createLedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';

const [path, email, secondsText, synchronous = 'FULL'] = process.argv.slice(2);
if (!path || !email) throw new Error('usage: bare-conversions.ts <db> <email> [seconds] [FULL|NORMAL]');
if (synchronous !== 'FULL' && synchronous !== 'NORMAL') throw new Error('synchronous: FULL or NORMAL');
const db = openDatabase(path, { synchronous });
const ledger = createLedgerService({ repo: createLedgerRepository(db), bus: createInProcessBus(), now: Date.now });
const userId = (db.$client.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: number }).id;
const seconds = Number(secondsText ?? 5);
const until = performance.now() + seconds * 1000;
let count = 0;
while (performance.now() < until) {
  await ledger.post(
    { actor: { type: 'user', userId } },
    {
      kind: 'conversion',
      idempotencyKey: `bare:${process.pid}:${count}`,
      memo: 'Convert USDT to BTC',
      metadata: { from: 'USDT', to: 'BTC', amountFrom: 10_000_000, amountTo: 11_083, price: 90_225 },
      legs: [
        { account: walletOf(userId, 'USDT'), amount: -10_000_000 },
        { account: systemAccount('conversion_desk', 'USDT'), amount: 10_000_000 },
        { account: systemAccount('conversion_desk', 'BTC'), amount: -11_083 },
        { account: walletOf(userId, 'BTC'), amount: 11_083 },
      ],
    },
  );
  count++;
}
console.log(`conversions ${count} ${seconds}`);
