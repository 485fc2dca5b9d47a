// The engines benchmark's database (tests/bench/engines.ts), in a process of its own because the
// tables are built for the engine at import time (db/schema/dialect.ts): migrated and seeded as
// `npm start` seeds it, 100,000 more offers, and the demo buyer's USDT for the conversions.
// Usage: [COINFAIR_DIALECT=postgres] node tests/bench/prepare-engine.ts <sqlite path | postgres URL> <offers>
import { connectDatabase } from '../../db/database.ts';
import { seedMoreOffers } from '../../db/seed/demo.ts';
import { prepareDatabase } from '../../db/seed/index.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { systemContext } from '../../server/services/context.ts';
import { createLedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';

const [url, offers = '100000'] = process.argv.slice(2);
if (!url) throw new Error('usage: node tests/bench/prepare-engine.ts <database> <offers>');
const database = await connectDatabase(url, { poolSize: 2 });
try {
  await prepareDatabase(database);
  await seedMoreOffers(database, Number(offers));
  const buyer = await database.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', ['buyer@example.com']);
  if (!buyer) throw new Error('no demo buyer');
  const ledger = createLedgerService({
    repo: createLedgerRepository(database),
    bus: createInProcessBus(),
    now: Date.now,
  });
  const amount = 1_000_000_000_000_000;
  await ledger.post(systemContext('bench'), {
    kind: 'deposit',
    idempotencyKey: 'bench:fund',
    legs: [
      { account: systemAccount('chain_in', 'USDT'), amount: -amount },
      { account: walletOf(buyer.id, 'USDT'), amount },
    ],
  });
} finally {
  await database.close();
}
console.log('prepared');
