// The engines benchmark's database (tests/bench/engines.ts), in a process of its own because the
// tables are built for the engine at import time (db/schema/dialect.ts): migrated and seeded as
// `npm start` seeds it, 100,000 more offers, the demo buyer's USDT for the conversions, and
// `pairs` buyers and vendors (fully verified; each vendor funded, with one fixed-price offer) for
// the trade lifecycles. Portable SQL: the same script prepares either engine.
// Usage: [COINFAIR_DIALECT=postgres] node tests/bench/prepare-engine.ts <sqlite path | postgres URL> <offers> <pairs>
import { connectDatabase, type Database } from '../../db/database.ts';
import { newId, newOfferHash } from '../../db/ids.ts';
import { seedMoreOffers } from '../../db/seed/demo.ts';
import { prepareDatabase } from '../../db/seed/index.ts';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { systemContext } from '../../server/services/context.ts';
import { createLedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { refreshFundingNeeds } from '../../server/services/offers/funding-needs.ts';

// `pairs`: buyers and vendors for the lifecycles (tests/bench/engines.ts signs them in).
const [url, offers = '100000', pairs = '20'] = process.argv.slice(2);

/** A row like `template` with `changes`, inserted; its new id. */
async function insertLike(database: Database, table: string, template: Record<string, unknown>, changes: object) {
  const row: Record<string, unknown> = { ...template, ...changes };
  delete row.id;
  const columns = Object.keys(row);
  const inserted = await database.sql.get<{ id: number }>(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING id`,
    columns.map((column) => row[column]),
  );
  return Number(inserted?.id);
}

/**
 * A copy of the demo buyer (same password), every verification step done, online for a day, with
 * empty wallets: the copies of the balances (`wallet_btc`, `wallet_usdt`) start at 0 like the
 * ledger's, which funds them below (the buyer's own copies would be money the ledger never saw).
 */
async function insertPerson(database: Database, name: string, vendor: boolean): Promise<number> {
  const template = await database.sql.get<Record<string, unknown>>('SELECT * FROM users WHERE email = ?', [
    'buyer@example.com',
  ]);
  const now = Date.now();
  const id = await insertLike(database, 'users', template ?? {}, {
    public_id: newId('usr'),
    username: name,
    email: `${name}@bench.example`,
    is_vendor: vendor ? 1 : 0,
    referral_code: null,
    wallet_btc: 0,
    wallet_usdt: 0,
    last_seen_at: now + 86_400_000,
    id_verified_at: now,
    address_verified_at: now,
  });
  await database.sql.run(`INSERT INTO phones (user_id, number, verified_at, codes_sent_at) VALUES (?, ?, ?, '[]')`, [
    id,
    `+49151${String(id).padStart(8, '0')}`,
    now,
  ]);
  return id;
}

/** A fixed-price sell offer (100,000 USD per BTC, bank transfer) open to anyone. */
async function insertOffer(database: Database, vendor: number): Promise<void> {
  const template = await database.sql.get<Record<string, unknown>>(
    `SELECT * FROM offers WHERE status = 'active' ORDER BY id LIMIT 1`,
  );
  const usd = await database.sql.get<{ id: number }>(`SELECT id FROM fiat_currencies WHERE code = 'USD'`);
  const bank = await database.sql.get<{ id: number }>(`SELECT id FROM payment_methods WHERE slug = 'bank-transfer'`);
  await insertLike(database, 'offers', template ?? {}, {
    hash: newOfferHash(),
    owner_id: vendor,
    type: 'sell',
    crypto_currency_id: 1,
    fiat_currency_id: usd?.id,
    payment_method_id: bank?.id,
    price_type: 'fixed',
    fixed_price_minor: 10_000_000,
    fiat_min_minor: 1_000,
    fiat_max_minor: 1_000_000,
    predefined_amounts_minor: '[]',
    new_buyer_max_fiat_minor: null,
    require_min_past_trades: 0,
    show_only_trusted_user: 0,
    require_verified_id: 0,
    allowed_countries: '[]',
    blocked_countries: '[]',
    trade_requirements: '[]',
    is_gold: 0,
    location_id: null,
    status: 'active',
  });
  // The copied row carries the template's funding needs: this offer's own (funding-needs.ts).
  await refreshFundingNeeds(database, 'offers.owner_id = ?', [vendor]);
}

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
  const deposit = (userId: number, currency: 'BTC' | 'USDT', amount: number) =>
    ledger.post(systemContext('bench'), {
      kind: 'deposit',
      idempotencyKey: `bench:fund:${userId}:${currency}`,
      legs: [
        { account: systemAccount('chain_in', currency), amount: -amount },
        { account: walletOf(userId, currency), amount },
      ],
    });
  await deposit(buyer.id, 'USDT', 1_000_000_000_000_000);
  for (let i = 0; i < Number(pairs); i++) {
    await insertPerson(database, `benchbuyer${i}`, false);
    const vendor = await insertPerson(database, `benchvendor${i}`, true);
    await deposit(vendor, 'BTC', 10_000_000_000);
    await insertOffer(database, vendor);
  }
} finally {
  await database.close();
}
console.log('prepared');
