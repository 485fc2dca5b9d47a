import { type Algorithm, hash } from '@node-rs/argon2';
import { asc, count, eq, like } from 'drizzle-orm';
import { createInProcessBus } from '../../server/realtime/bus.ts';
import { immediate, systemContext } from '../../server/services/context.ts';
import { createLedgerService, systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { createLedgerRepository } from '../../server/services/ledger/repository.ts';
import { refreshFundingNeeds } from '../../server/services/offers/funding-needs.ts';
import type { OFFER_TAGS } from '../../src/lib/shared/offer-rules.ts';
import { asDatabase, type Database, type DatabaseLike } from '../database.ts';
import { newId, newOfferHash } from '../ids.ts';
import {
  countries,
  cryptoCurrencies,
  fiatCurrencies,
  offers,
  paymentGroups,
  paymentMethods,
  phones,
  users,
} from '../schema/index.ts';
import { insertMany } from './bulk.ts';
import { countries as countrySeeds } from './data/countries.ts';
import { withTradeRules } from './demo-trade-rules.ts';
import { type SeededRandom, seededRandom } from './random.ts';

/** Every demo account shares this password; the README lists the accounts. */
export const DEMO_PASSWORD = 'Coinfair-demo-2026!';

type UserInsert = typeof users.$inferInsert;

/** One account per role (spec section 6), documented in the README. */
export const demoAccounts: ReadonlyArray<Pick<UserInsert, 'username' | 'email' | 'role'> & Partial<UserInsert>> = [
  { username: 'admin', email: 'admin@example.com', role: 'admin' },
  { username: 'moderator', email: 'moderator@example.com', role: 'moderator' },
  { username: 'vendor', email: 'vendor@example.com', role: 'user', isVendor: true },
  { username: 'buyer', email: 'buyer@example.com', role: 'user' },
  {
    username: 'affiliate',
    email: 'affiliate@example.com',
    role: 'user',
    isAffiliate: true,
    isAffiliatePayForSellSide: true,
  },
  { username: 'merchant', email: 'merchant@example.com', role: 'user', isMerchant: true },
  { username: 'kiosk', email: 'kiosk@example.com', role: 'user', isKiosk: true },
  { username: 'suspended', email: 'suspended@example.com', role: 'user', status: 'suspended' },
  { username: 'banned', email: 'banned@example.com', role: 'user', status: 'banned' },
];

const VENDOR_NAMES = [
  'SwiftSats',
  'LagosBTC',
  'NairobiCoin',
  'AmazonKing',
  'EuroTrader',
  'PixPronto',
  'UpiExpress',
  'AtlasCrypto',
  'ManilaFast',
  'AndesBit',
  'MumbaiDesk',
  'BerlinBlock',
  'TokyoTether',
  'SeoulSats',
  'CairoCoins',
  'AccraGold',
  'JoburgBit',
  'LimaLedger',
  'BogotaBTC',
  'MadridMint',
  'ParisPeer',
  'LondonLink',
  'TorontoTrade',
  'SydneySats',
  'DubaiDesk',
  'KarachiCoin',
  'DhakaDirect',
  'HanoiHodl',
  'BangkokBit',
  'JakartaJet',
  'KyivKeys',
  'WarsawWallet',
  'IstanbulIO',
  'MexicoMint',
  'SantiagoSats',
  'CaracasCash',
  'KampalaKoin',
  'DakarDigital',
  'KigaliCrypto',
  'RioRapido',
  'ChicagoChain',
  'MiamiMoney',
];

const TERMS = [
  'Send the exact amount from an account in your own name. Include no crypto words in the payment reference. I release within minutes after the money arrives.',
  "Fast and friendly. Please have your ID ready; first-time buyers may be asked for a selfie with today's date.",
  'Only pay from a bank account that matches your verified name. Third-party payments are refunded minus fees and the trade is cancelled.',
  'Gift card must be unused and the receipt must be uploaded to the trade chat before I check the code.',
  'Mark as paid only after you have really paid. Disputes are opened for false payment claims.',
  'Online 08:00–22:00 local time. Large amounts welcome; contact me in the chat before paying above the maximum.',
];

// Tags a vendor may set (OFFER_TAGS): a seeded offer must be one a vendor could have made.
export const DEMO_TAGS: readonly (typeof OFFER_TAGS)[number][] = [
  'no-verification-needed',
  'receipt-required',
  'photo-id-required',
  'online-payments',
  'same-bank-only',
  'instant',
];

function minorFactor(minorUnits: number): number {
  return 10 ** minorUnits;
}

/** A round number near `value`, so limits read like a person chose them (50, 100, 2500). */
function roundNice(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 2, 2.5, 5, 10];
  const step = steps.find((s) => value <= s * magnitude) ?? 10;
  return step * magnitude;
}

export async function hasDemoData(db: DatabaseLike): Promise<boolean> {
  const database = asDatabase(db);
  const row = await database.get(database.orm.select({ n: count() }).from(users));
  return (row?.n ?? 0) > 0;
}

/** `Algorithm.Argon2id`; the package's const enum cannot be imported as a value under type stripping. */
const ARGON2ID: Algorithm.Argon2id = 2;

/** Hashes once for every demo account: argon2id at OWASP parameters costs ~50 ms a hash. */
export async function hashDemoPassword(): Promise<string> {
  return hash(DEMO_PASSWORD, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export interface DemoSeedOptions {
  offerCount?: number;
  seed?: number;
  now?: number;
}

/** Demo users of every role and `offerCount` offers across currencies and methods, in one transaction. */
export async function seedDemoData(
  db: DatabaseLike,
  passwordHash: string,
  options: DemoSeedOptions = {},
): Promise<void> {
  const { offerCount = 640, seed = 20261122, now = Date.now() } = options;
  const database = asDatabase(db);

  await immediate(database, async () => {
    // Drawn inside: a transaction PostgreSQL runs again after a conflict draws the same market.
    const random = seededRandom(seed);
    const context = await referenceContext(database, now);
    const fiatByCode = new Map(context.fiats.map((f) => [f.code, f]));
    const countryIds = new Map(
      (await database.all(database.orm.select({ id: countries.id, iso: countries.iso }).from(countries))).map((c) => [
        c.iso,
        c.id,
      ]),
    );
    // The demo accounts live in the United States (the default country), each vendor in the
    // country whose currency they trade.
    const usa = { countryId: countryIds.get('US') ?? null, currencyId: fiatByCode.get('USD')?.id ?? null };

    const vendorIds: number[] = [];
    for (const account of demoAccounts) {
      const row = await insertUser(database, {
        publicId: newId('usr', random.bytes),
        referralCode: random.bytes(5).toString('hex'),
        passwordHash,
        isEmailVerified: true,
        lastSeenAt: now,
        createdAt: now - 400 * 86_400_000,
        ...usa,
        ...account,
      });
      if (row.isVendor) vendorIds.push(row.id);
    }

    for (const [i, name] of VENDOR_NAMES.entries()) {
      const country = random.pick(countrySeeds);
      // The three skipped draws once invented trade and feedback counters; they stay so every
      // later draw, and with it the demo market, is unchanged. The counters now come from the
      // services that keep them, during the demo history (demo-history.ts).
      random.next();
      const publicId = newId('usr', random.bytes);
      const referralCode = random.bytes(5).toString('hex');
      random.next();
      random.next();
      const row = await insertUser(database, {
        publicId,
        referralCode,
        username: name,
        email: `${name.toLowerCase()}@vendors.example.com`,
        passwordHash,
        isVendor: true,
        isEmailVerified: true,
        countryId: countryIds.get(country.iso) ?? null,
        currencyId: fiatByCode.get(country.currencyCode)?.id ?? null,
        lastSeenAt: now - random.int(0, 3 * 86_400_000) * (i % 3 === 0 ? 0 : 1),
        createdAt: now - random.int(30, 2500) * 86_400_000,
      });
      vendorIds.push(row.id);
    }

    const offerContext = { ...context, vendorIds };
    const rows = Array.from({ length: offerCount }, (_, i) => withTradeRules(demoOffer(random, offerContext), i, now));
    await insertMany(database, offers, rows);
    // What each sell offer's owner must hold to be listed (written around the repository, so here).
    await refreshFundingNeeds(database);
  });
}

async function insertUser(database: Database, values: UserInsert): Promise<{ id: number; isVendor: boolean }> {
  const row = await database.get(
    database.orm.insert(users).values(values).returning({ id: users.id, isVendor: users.isVendor }),
  );
  if (!row) throw new Error('demo seed: the user insert returned no row');
  return row;
}

/** The demo vendors' addresses: the only accounts whose presence the demo market plays. */
export const DEMO_VENDOR_DOMAIN = '@vendors.example.com';

/** What each demo vendor holds to sell: escrow for many trades at every offer's maximum. */
export const DEMO_VENDOR_FUNDS = { BTC: 150_000_000, USDT: 25_000_000_000 } as const;

/**
 * A demo account's starting coins: one deposit per currency from the chain's incoming account,
 * through the ledger service (the only writer of postings), inside the caller's transaction.
 */
export async function postDemoFunding(
  ledger: Pick<ReturnType<typeof createLedgerService>, 'post'>,
  userId: number,
  funds: Readonly<Record<'BTC' | 'USDT', number>>,
): Promise<void> {
  for (const currency of ['BTC', 'USDT'] as const) {
    const amount = funds[currency];
    await ledger.post(
      { ...systemContext('demo-seed'), tx: { afterCommit: () => {} } },
      {
        kind: 'deposit',
        idempotencyKey: `demo-funding:${userId}:${currency}`,
        memo: 'Demo funding',
        legs: [
          { account: systemAccount('chain_in', currency), amount: -amount },
          { account: walletOf(userId, currency), amount },
        ],
      },
    );
  }
}

/**
 * Makes the demo vendors ready to trade, in one transaction: fully verified (level 4,
 * docs/verification.md: phone, identity and address) and funded through the ledger (the only
 * writer of postings) from the chain's incoming account. Without it a visitor who signs up would
 * find every sell offer refused for the seller's balance or trading limit. Returns how many.
 */
export async function readyDemoVendors(db: DatabaseLike, now = Date.now()): Promise<number> {
  const database = asDatabase(db);
  const ledger = createLedgerService({
    repo: createLedgerRepository(database),
    bus: createInProcessBus(),
    now: () => now,
  });
  return immediate(database, async () => {
    const vendors = await demoVendorIds(database);
    for (const [i, { id }] of vendors.entries()) {
      const verifiedAt = now - 300 * 86_400_000;
      await database.run(
        database.orm
          .update(users)
          .set({ idVerifiedAt: verifiedAt, addressVerifiedAt: verifiedAt })
          .where(eq(users.id, id)),
      );
      // +1 555 01xx xxxx: numbers reserved for fiction in the North American plan.
      const number = `+1555010${String(i).padStart(4, '0')}`;
      await database.run(database.orm.insert(phones).values({ userId: id, number, verifiedAt, codesSentAt: [] }));
      await postDemoFunding(ledger, id, DEMO_VENDOR_FUNDS);
    }
    return vendors.length;
  });
}

function demoVendorIds(database: Database): Promise<{ id: number }[]> {
  // The seed writes these addresses in lower case: the match is the same on both engines.
  return database.all(
    database.orm
      .select({ id: users.id })
      .from(users)
      .where(like(users.email, `%${DEMO_VENDOR_DOMAIN}`))
      // The order SQLite's scan of the e-mail index gave (the phone numbers follow it).
      .orderBy(asc(users.email)),
  );
}

/**
 * The demo market's vendors come and go like real ones: a third online now, the rest seen in the
 * last day and a half, reshuffled every hour. Without it, every demo offer would go offline three
 * days after the first start (src/lib/shared/presence.ts) and the listings would empty. Only the seeded
 * `…@vendors.example.com` accounts move; nobody else's presence is touched.
 */
export async function refreshDemoPresence(db: DatabaseLike, now = Date.now()): Promise<number> {
  const hour = Math.floor(now / 3_600_000);
  const database = asDatabase(db);
  return immediate(database, async () => {
    const vendors = await demoVendorIds(database);
    for (const { id } of vendors) {
      const random = seededRandom(hour * 7919 + id);
      const away = random.chance(0.34) ? random.int(0, 8 * 60_000) : random.int(10 * 60_000, 36 * 3_600_000);
      await database.run(
        database.orm
          .update(users)
          .set({ lastSeenAt: now - away })
          .where(eq(users.id, id)),
      );
    }
    return vendors.length;
  });
}

/**
 * `count` more offers of the demo's kinds, owned by the vendors already there and all of them
 * online: the benchmark's scratch database (100,000 offers) is built with it.
 */
export async function seedMoreOffers(
  db: DatabaseLike,
  count: number,
  options: { seed?: number; now?: number } = {},
): Promise<void> {
  const { seed = 4242, now = Date.now() } = options;
  const database = asDatabase(db);
  await immediate(database, async () => {
    const random = seededRandom(seed);
    await database.run(database.orm.update(users).set({ lastSeenAt: now }).where(eq(users.isVendor, true)));
    const vendorIds = (
      await database.all(
        database.orm.select({ id: users.id }).from(users).where(eq(users.isVendor, true)).orderBy(asc(users.id)),
      )
    ).map((u) => u.id);
    const context = { ...(await referenceContext(database, now)), vendorIds };
    // Many rows per statement: one insert per offer takes ten times as long.
    for (let done = 0; done < count; done += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - done) }, () => demoOffer(random, context));
      await insertMany(database, offers, batch);
    }
    await refreshFundingNeeds(database, 'offers.need_usd = 0 AND offers.need_crypto = 0');
  });
}

/** The currencies, methods and groups the demo's offers are drawn from. */
async function referenceContext(database: Database, now: number): Promise<Omit<OfferContext, 'vendorIds'>> {
  // In id order, as SQLite scans them: the draws pick by position.
  const { orm } = database;
  const groups = await database.all(orm.select().from(paymentGroups).orderBy(asc(paymentGroups.id)));
  return {
    fiats: await database.all(orm.select().from(fiatCurrencies).orderBy(asc(fiatCurrencies.id))),
    allMethods: await database.all(orm.select().from(paymentMethods).orderBy(asc(paymentMethods.id))),
    groups: new Map(groups.map((g) => [g.id, g.slug])),
    cryptos: await database.all(orm.select().from(cryptoCurrencies).orderBy(asc(cryptoCurrencies.id))),
    now,
  };
}

interface OfferContext {
  vendorIds: number[];
  fiats: (typeof fiatCurrencies.$inferSelect)[];
  allMethods: (typeof paymentMethods.$inferSelect)[];
  groups: Map<number, string>;
  cryptos: (typeof cryptoCurrencies.$inferSelect)[];
  now: number;
}

function demoOffer(random: SeededRandom, c: OfferContext): typeof offers.$inferInsert {
  // Popular currencies (low sort order) get most offers, as on a real marketplace.
  const fiat = random.weighted(c.fiats, (f) => (f.sortOrder <= 15 ? 40 : f.sortOrder <= 40 ? 6 : 1));
  const fitting = c.allMethods.filter((m) => m.currencies.length === 0 || m.currencies.includes(fiat.code));
  const method = random.pick(fitting.length > 0 ? fitting : c.allMethods);
  const group = c.groups.get(method.groupId) ?? '';
  const crypto = random.weighted(c.cryptos, (x) => (x.code === 'BTC' ? 7 : 3));
  const type = random.chance(0.62) ? 'sell' : 'buy';

  // Gift cards and chargeback-prone methods carry higher margins; bank transfers trade near market.
  const marginRange = group === 'gift-cards' ? [800, 4500] : group === 'bank-transfers' ? [-150, 600] : [0, 1200];
  const margin = random.int(marginRange[0] ?? 0, marginRange[1] ?? 0);
  const signedMargin = type === 'sell' ? margin : -Math.round(margin / 2);

  const factor = minorFactor(fiat.minorUnits);
  const minMajor = roundNice(fiat.defaultAmount * random.pick([0.1, 0.25, 0.5, 1]));
  const maxMajor = roundNice(minMajor * random.pick([2, 5, 10, 20, 50]));
  const created = c.now - random.int(0, 180) * 86_400_000;

  return {
    hash: newOfferHash(random.bytes),
    ownerId: random.pick(c.vendorIds),
    type,
    cryptoCurrencyId: crypto.id,
    fiatCurrencyId: fiat.id,
    paymentMethodId: method.id,
    marginBasisPoints: signedMargin,
    fiatMinMinor: Math.round(minMajor * factor),
    fiatMaxMinor: Math.round(maxMajor * factor),
    paymentWindowMinutes: random.pick([30, 30, 60, 60, 90, 120]),
    terms: random.pick(TERMS),
    tags: [random.pick(DEMO_TAGS), random.pick(DEMO_TAGS)].filter((t, i, all) => all.indexOf(t) === i),
    requireVerifiedId: random.chance(0.25),
    requireMinPastTrades: random.pick([0, 0, 0, 1, 3, 5, 10]),
    showOnlyTrustedUser: random.chance(0.05),
    isFeatured: random.chance(0.08),
    status: random.chance(0.94) ? 'active' : 'paused',
    createdAt: created,
    updatedAt: created,
  };
}
