import { asc, eq, like } from 'drizzle-orm';
import type { EventBus } from '../../server/realtime/bus.ts';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createServices, type Services } from '../../server/services/container.ts';
import { immediate, type PersonContext, personContext } from '../../server/services/context.ts';
import { AppError } from '../../server/services/errors.ts';
import type { Rating } from '../../server/services/feedback/repository.ts';
import type { OfferView } from '../../server/services/offers/offer-view.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { CRYPTO_DECIMALS } from '../../src/lib/shared/money.ts';
import { asDatabase, type Database, type DatabaseLike } from '../database.ts';
import { newId } from '../ids.ts';
import { phones, users } from '../schema/index.ts';
import { DEMO_VENDOR_DOMAIN, postDemoFunding } from './demo.ts';
import { cardValuesFor, giveDemoBuyerCards, revealEveryCode, saveCardsFor } from './demo-gift-cards.ts';
import { amountFor, pastPrices, planSlots, type Slot, shuffled } from './demo-history-plan.ts';
import {
  ABOUT_BUYER,
  ABOUT_SELLER,
  BUYER_NAMES,
  NEGATIVE_ABOUT_BUYER,
  NEGATIVE_ABOUT_SELLER,
  REPLIES,
} from './demo-history-texts.ts';
import { referDemoPeople } from './demo-referrals.ts';
import { type SeededRandom, seededRandom } from './random.ts';

// The demo market's past (docs/decisions/078-demo-history-from-services.md, "Demo history comes from the services"): a pool of
// demo buyers trades with every demo vendor over the last months, through the product's own
// services on a simulated clock: the trades service starts, pays and releases (escrow moves on
// the ledger), the feedback service rates. The counters on the profiles are the ones those
// services keep, so every "positive" has a feedback row and every completed trade a past trade.

/** How far back the demo history starts. */
export const DEMO_HISTORY_DAYS = 120;
export const DEMO_BUYER_DOMAIN = '@buyers.example.com';
/** What each demo buyer who also sells holds at the start of the history. */
export const DEMO_BUYER_FUNDS = { BTC: 50_000_000, USDT: 10_000_000_000 } as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** A trade with both ratings and a reply takes up to about 6 simulated hours; all end before `now`. */
const LAST_TRADE_BEFORE_NOW = 9 * HOUR;

/** Every event is dropped: past trades need no notifications, e-mails or live pushes. */
const silentBus: EventBus = { publish() {}, subscribe: () => () => {} };

export interface DemoHistoryResult {
  buyers: number;
  completed: number;
  cancelled: number;
  feedback: number;
}

/** What every step of the history shares: the services on the simulated clock, the people. */
interface HistoryRun {
  database: Database;
  random: SeededRandom;
  services: Services;
  /** The simulated clock the services read; it only moves forward. */
  clock: { at: number };
  now: number;
  vendors: DemoVendor[];
  buyers: number[];
  /** The buyers who also sell to the vendors' buy offers. */
  sellers: number[];
  /** Moves the clock on by `ms`, never past a minute before `now`. */
  advance(ms: number): void;
  /** Moves the clock to a slot's time and the prices with it. */
  moveTo(at: number): void;
  /** Marks people as seen now (the start gate wants vendors online). */
  seen(...ids: number[]): Promise<void>;
  /** A signed-in person's context, as their own request would carry it. */
  as(id: number): Promise<PersonContext>;
}

interface DemoVendor {
  id: number;
  createdAt: number;
  lastSeenAt: number;
  passwordHash: string;
}

interface StartedTrade {
  hash: string;
  vendorId: number;
  buyerId: number;
  sellerId: number;
  /** A gift-card trade where the vendor buys: the cards they bring before marking paid. */
  vendorCards?: { offer: OfferView; values: string[] };
  giftCards: boolean;
}

/**
 * Seeds the demo buyers and runs the demo market's history through the services, from
 * DEMO_HISTORY_DAYS before `now` until shortly before it. Needs the demo vendors funded and
 * verified (readyDemoVendors) first. Deterministic for a seed, except the random ids the
 * services give trades and ledger transactions.
 */
export async function seedDemoHistory(
  db: DatabaseLike,
  options: { now?: number; seed?: number; giftCodeKey?: string | undefined } = {},
): Promise<DemoHistoryResult> {
  const { now = Date.now(), seed = 20260601, giftCodeKey } = options;
  const database = asDatabase(db);
  // One transaction: the history is all there or not at all, and its thousands of writes commit once.
  return immediate(database, async () => {
    // Set up inside: a transaction PostgreSQL runs again after a conflict replays the same history.
    const random = seededRandom(seed);
    const clock = { at: now - DEMO_HISTORY_DAYS * DAY };
    const vendors = await demoVendors(database);
    // The demo password's hash, as every demo account has it (hashing again costs ~50 ms).
    const passwordHash = vendors[0]?.passwordHash;
    if (passwordHash === undefined) return { buyers: 0, completed: 0, cancelled: 0, feedback: 0 };
    const buyers = await insertBuyers(database, random, passwordHash, clock.at);
    await referDemoPeople(database, buyers, vendors);
    const run = await historyRun({ database, random, clock, now, vendors, buyers }, giftCodeKey);
    // Two of three buyers also sell to the vendors' buy offers: they need coins for the escrow.
    for (const id of run.sellers) await postDemoFunding(run.services.ledger, id, DEMO_BUYER_FUNDS);
    const result = await playSlots(run, await planSlots(database, random, vendors, clock.at, now));
    await restoreVendorPresence(database, vendors);
    // The demo buyer people sign in as keeps a few free gift cards to try a gift-card trade with.
    const demoBuyer = await database.sql.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [
      'buyer@example.com',
    ]);
    if (demoBuyer) await giveDemoBuyerCards(database, run.services, random, await run.as(demoBuyer.id));
    return result;
  });
}

function demoVendors(database: Database): Promise<DemoVendor[]> {
  return database.all(
    database.orm
      .select({
        id: users.id,
        createdAt: users.createdAt,
        lastSeenAt: users.lastSeenAt,
        passwordHash: users.passwordHash,
      })
      .from(users)
      .where(like(users.email, `%${DEMO_VENDOR_DOMAIN}`))
      .orderBy(asc(users.id)),
  );
}

const TOUCH = 'UPDATE users SET last_seen_at = ? WHERE id = ?';
const LAST_SEEN = 'SELECT last_seen_at AS lastSeenAt FROM users WHERE id = ?';

/** The services on the simulated clock, with prices from the seeded chart history. */
async function historyRun(
  base: Pick<HistoryRun, 'database' | 'random' | 'clock' | 'now' | 'vendors' | 'buyers'>,
  giftCodeKey: string | undefined,
): Promise<HistoryRun> {
  const { database, random, clock, now, buyers } = base;
  const priceFeed = createSimulatedPriceFeed({ tickSeconds: 10, random: random.next, now: () => clock.at });
  const services = createServices({
    db: database,
    priceFeed,
    config: {
      AUTH_CHALLENGE: 'off',
      MAIL_FROM: 'Coinfair <no-reply@coinfair.example>',
      UPLOADS_DIR: 'data/uploads',
      // The server's key: the codes sealed here open on its gift code checks.
      ...(giftCodeKey ? { GIFT_CODE_KEY: giftCodeKey } : {}),
    },
    log: { info() {}, error() {} },
    now: () => clock.at,
    mailer: { async send() {} },
    smsSender: { async send() {} },
    bus: silentBus,
  });
  const accounts = createAccountsRepository(database);
  const pastPrice = await pastPrices(database);
  return {
    ...base,
    services,
    sellers: buyers.filter((_, i) => i % 3 !== 2),
    advance(ms) {
      clock.at = Math.max(clock.at, Math.min(clock.at + ms, now - MINUTE));
    },
    moveTo(at) {
      clock.at = Math.max(clock.at, at);
      // Past prices from the seeded chart history when there is one, so trades match the chart.
      priceFeed.resumeFrom({
        at: clock.at,
        usd: { BTC: pastPrice('BTC', clock.at), USDT: pastPrice('USDT', clock.at) },
      });
    },
    async seen(...ids) {
      for (const id of ids) await database.sql.run(TOUCH, [clock.at, id]);
    },
    async as(id) {
      const user = await accounts.userById(id);
      const profile = await accounts.userProfile(id);
      if (!user || !profile) throw new Error(`demo history: no user ${id}`);
      const session = {
        id: `demo-history-${id}`,
        userId: id,
        csrfToken: '',
        createdAt: clock.at,
        expiresAt: clock.at + DAY,
        ip: '',
        userAgent: 'demo-history',
        publicId: 'ses_demo',
        lastUsedAt: clock.at,
      };
      return personContext({ session, user, profile });
    },
  };
}

/** Each slot in time: a trade started, then cancelled, or paid, released and rated. */
async function playSlots(run: HistoryRun, slots: Slot[]): Promise<DemoHistoryResult> {
  const { random, clock, now } = run;
  const result: DemoHistoryResult = { buyers: run.buyers.length, completed: 0, cancelled: 0, feedback: 0 };
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as Slot;
    // A trade that could not end before `now` is left out (planning leaves room; see planSlots).
    if (Math.max(clock.at, slot.at) > now - LAST_TRADE_BEFORE_NOW) break;
    run.moveTo(slot.at);
    const started = await startSlot(run, slot);
    if (!started) {
      // Early on nobody has the past trades some offers ask for: the vendor trades a few days later.
      const later = clock.at + random.int(1, 6) * DAY;
      if (later < now - 3 * DAY) {
        slots.splice(i + 1, 0, { ...slot, at: later });
        slots.sort((a, b) => a.at - b.at);
      }
      continue;
    }
    if (slot.cancel) {
      run.advance(random.int(3, 20) * MINUTE);
      await run.seen(started.buyerId);
      await run.services.trades.cancel(await run.as(started.buyerId), { hash: started.hash });
      result.cancelled++;
      continue;
    }
    await completeTrade(run, started);
    result.completed++;
    result.feedback += await rateBothSides(run, started);
  }
  return result;
}

async function completeTrade(run: HistoryRun, started: StartedTrade): Promise<void> {
  const { hash, buyerId, sellerId, vendorCards } = started;
  const { services, random } = run;
  run.advance(random.int(2, 25) * MINUTE);
  await run.seen(buyerId);
  if (vendorCards) {
    const ctx = await run.as(buyerId);
    const ids = await saveCardsFor(services, random, ctx, vendorCards.offer, vendorCards.values);
    await services.giftCards.addToTrade(ctx, { hash, gift_card_ids: ids });
  }
  await services.trades.markPaid(await run.as(buyerId), { hash });
  run.advance(random.int(1, 40) * MINUTE);
  await run.seen(sellerId);
  if (started.giftCards) await revealEveryCode(services, await run.as(sellerId), hash);
  await services.trades.release(await run.as(sellerId), { hash });
}

/** Both sides rate, in either order, within the next hours; now and then one is unhappy. Returns how many rated. */
async function rateBothSides(run: HistoryRun, { hash, buyerId, sellerId, vendorId }: StartedTrade): Promise<number> {
  const { random } = run;
  const raters = random.chance(0.5) ? [buyerId, sellerId] : [sellerId, buyerId];
  for (const from of raters) {
    run.advance(random.int(1, 90) * MINUTE);
    await run.seen(from);
    const aboutSeller = from === buyerId;
    const rating: Rating = random.chance(0.06) ? 'negative' : 'positive';
    const list =
      rating === 'positive'
        ? aboutSeller
          ? ABOUT_SELLER
          : ABOUT_BUYER
        : aboutSeller
          ? NEGATIVE_ABOUT_SELLER
          : NEGATIVE_ABOUT_BUYER;
    await run.services.feedback.give(await run.as(from), { hash, rating, message: random.pick(list) });
    // A vendor answers most criticism.
    const to = from === buyerId ? sellerId : buyerId;
    if (rating === 'negative' && to === vendorId && random.chance(0.7)) {
      run.advance(random.int(10, 120) * MINUTE);
      await run.seen(vendorId);
      await run.services.feedback.reply(await run.as(vendorId), { hash, reply: random.pick(REPLIES) });
    }
  }
  return raters.length;
}

/**
 * Starts the slot's trade as the offer page would: the first of the vendor's offers a buyer of
 * the pool may start (no start-gate blocks), at an amount inside the limits the page shows.
 */
async function startSlot(run: HistoryRun, slot: Slot): Promise<StartedTrade | undefined> {
  const { random, services } = run;
  // The vendor is online: the start gate refuses offers of owners who are not.
  await run.seen(slot.vendorId);
  for (const offerHash of slot.offerHashes) {
    for (const responderId of shuffled(random, run.buyers)) {
      const ctx = await run.as(responderId);
      const { offer, blocks, limits } = await services.offers.get(ctx, { hash: offerHash, locale: 'en' });
      // Most often an offer asking for more past trades than this buyer has yet.
      if (blocks.length > 0 || (offer.type === 'buy' && !run.sellers.includes(responderId))) continue;
      const fiat = amountFor(random, offer, limits);
      const values = offer.isGiftCard ? cardValuesFor(fiat, offer.fiatDecimals) : [];
      if (!values) continue;
      await run.seen(responderId);
      const vendorSells = offer.type === 'sell';
      try {
        const trade = await startOn(run, ctx, offer, fiat, values);
        return {
          hash: trade.hash,
          vendorId: slot.vendorId,
          buyerId: vendorSells ? responderId : slot.vendorId,
          sellerId: vendorSells ? slot.vendorId : responderId,
          giftCards: offer.isGiftCard,
          ...(offer.isGiftCard && !vendorSells ? { vendorCards: { offer, values } } : {}),
        };
      } catch (error) {
        // A limit or a balance the pool cannot meet right now: the next buyer, or the next offer.
        if (!(error instanceof AppError)) throw error;
      }
    }
  }
  return undefined;
}

/** The start as the offer page makes it: a buyer paying a gift-card offer saves the cards and starts with them. */
async function startOn(run: HistoryRun, ctx: PersonContext, offer: OfferView, fiat: string, values: string[]) {
  const crypto = offer.cryptoCurrency as 'BTC' | 'USDT';
  const start = {
    offer_hash: offer.hash,
    amount_fiat: fiat,
    amount_btc: (Number(fiat) / offer.fiatPricePerCrypto).toFixed(CRYPTO_DECIMALS[crypto]),
    gold_terms: offer.isGold ? (1 as const) : (0 as const),
    original_data: offer.originalData,
    locale: 'en' as const,
    ip: null,
  };
  if (!offer.isGiftCard || offer.type === 'buy') return run.services.trades.start(ctx, start);
  const ids = await saveCardsFor(run.services, run.random, ctx, offer, values);
  const { giftCards } = run.services;
  try {
    const started = await giftCards.startTrade(ctx, {
      ...start,
      fiat_currency_id: offer.fiatCurrencyId,
      payment_method_id: offer.paymentMethodId,
      gift_card_ids: ids,
    });
    return started.data;
  } catch (error) {
    // Refused (a limit, a balance): the cards stay the buyer's, deleted so they do not pile up.
    for (const id of ids) await giftCards.remove(ctx, { id });
    throw error;
  }
}

/** The demo vendors' presence as the demo seed set it, unless a trade saw them later. */
async function restoreVendorPresence(database: Database, vendors: DemoVendor[]): Promise<void> {
  for (const vendor of vendors) {
    const row = await database.sql.get<{ lastSeenAt: number }>(LAST_SEEN, [vendor.id]);
    const at = Math.max(vendor.lastSeenAt, row?.lastSeenAt ?? 0);
    await database.run(database.orm.update(users).set({ lastSeenAt: at }).where(eq(users.id, vendor.id)));
  }
}

/** The demo buyers: e-mail, phone and identity verified (level 3), registered before the history. */
function insertBuyers(
  database: Database,
  random: SeededRandom,
  passwordHash: string,
  start: number,
): Promise<number[]> {
  return immediate(database, async () => {
    const ids: number[] = [];
    for (const [i, name] of BUYER_NAMES.entries()) {
      const createdAt = start - random.int(20, 600) * DAY;
      const verifiedAt = createdAt + random.int(1, 15) * DAY;
      const row = await database.get(
        database.orm
          .insert(users)
          .values({
            publicId: newId('usr', random.bytes),
            referralCode: random.bytes(5).toString('hex'),
            username: name,
            email: `${name.toLowerCase()}${DEMO_BUYER_DOMAIN}`,
            passwordHash,
            isEmailVerified: true,
            idVerifiedAt: verifiedAt,
            lastSeenAt: start,
            createdAt,
          })
          .returning({ id: users.id }),
      );
      if (!row) throw new Error('demo history: the buyer insert returned no row');
      // +1 555 01xx xxxx, like the vendors' (numbers reserved for fiction), in a range of their own.
      await database.run(
        database.orm
          .insert(phones)
          .values({ userId: row.id, number: `+1555011${String(i).padStart(4, '0')}`, verifiedAt, codesSentAt: [] }),
      );
      ids.push(row.id);
    }
    return ids;
  });
}
