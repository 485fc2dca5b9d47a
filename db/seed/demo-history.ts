import { asc, eq, like } from 'drizzle-orm';
import type { AuthState } from '../../server/http/auth.ts';
import type { EventBus } from '../../server/realtime/bus.ts';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createServices } from '../../server/services/container.ts';
import { AppError } from '../../server/services/errors.ts';
import type { Rating } from '../../server/services/feedback/repository.ts';
import type { OfferView } from '../../server/services/offers/offer-view.ts';
import type { CryptoCode } from '../../server/services/price-feed/price-feed.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';
import { SIMULATED_MARKET } from '../../server/services/price-feed/walk.ts';
import { CRYPTO_DECIMALS } from '../../src/lib/shared/money.ts';
import type { Db } from '../client.ts';
import { newId } from '../ids.ts';
import { phones, priceHistory, users } from '../schema/index.ts';
import { DEMO_VENDOR_DOMAIN, postDemoFunding } from './demo.ts';
import { type SeededRandom, seededRandom } from './random.ts';

// The demo market's past (docs/decisions.md, "Demo history comes from the services"): a pool of
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
/** No single demo trade above this many US dollars, so nobody's 30-day limit runs out. */
const TRADE_USD_CAP = 1_500;

const BUYER_NAMES = [
  'MariaPaz',
  'KwameOwusu',
  'LenaKraus',
  'RaviTrades',
  'JuanM87',
  'AmaraBello',
  'TomekW',
  'YukiHodl',
  'OmarFarouk',
  'NoraLind',
  'DiegoRamos',
  'ChiomaSats',
];

/** Feedback about the party who sold the coins. */
const ABOUT_SELLER = [
  'Fast release, thank you!',
  'Released within minutes of my payment. Recommended.',
  'Smooth trade, would trade again.',
  'Clear instructions and a quick release.',
  'Second trade with them, reliable as always.',
  'Patient with a first-timer, explained every step.',
  'Everything as described in the terms.',
  'Great vendor, coins arrived right away.',
  'Liberación rápida, muy recomendable.',
  'Tudo certo, recomendo!',
  'Schnell und zuverlässig, gerne wieder.',
];

/** Feedback about the party who paid. */
const ABOUT_BUYER = [
  'Paid quickly, smooth trade.',
  'Payment arrived right away. Thanks!',
  'Followed the terms, paid from their own account.',
  'Good communication, fast payment.',
  'Very professional, no issues at all.',
  'Pleasant trader, welcome back any time.',
  'Quick and easy, thank you.',
  'Paiement rapide, merci !',
  'Pago rápido y sin problemas.',
];

const NEGATIVE_ABOUT_SELLER = [
  'Took over an hour to release after I paid.',
  'Slow to answer in the chat, had to remind them twice.',
  'Asked for extra documents that are not in the terms.',
  'Muy lento en responder.',
];

const NEGATIVE_ABOUT_BUYER = [
  'Paid from an account in another name; sorted out in the end.',
  'Marked paid long before the money arrived.',
  'Paid at the last minute of the window.',
];

const REPLIES = [
  'Sorry for the wait, my bank held the transfer for a while.',
  'Apologies, I was offline for a moment. Thanks for your patience.',
  'The terms ask for a payment from your own account; glad it worked out.',
];

/** Every event is dropped: past trades need no notifications, e-mails or live pushes. */
const silentBus: EventBus = { publish() {}, subscribe: () => () => {} };

interface Slot {
  vendorId: number;
  /** The vendor's offers to try, the planned one first. */
  offerHashes: string[];
  at: number;
  cancel: boolean;
}

export interface DemoHistoryResult {
  buyers: number;
  completed: number;
  cancelled: number;
  feedback: number;
}

/**
 * Seeds the demo buyers and runs the demo market's history through the services, from
 * DEMO_HISTORY_DAYS before `now` until shortly before it. Needs the demo vendors funded and
 * verified (readyDemoVendors) first. Deterministic for a seed, except the random ids the
 * services give trades and ledger transactions.
 */
export function seedDemoHistory(db: Db, options: { now?: number; seed?: number } = {}): DemoHistoryResult {
  const { now = Date.now(), seed = 20260601 } = options;
  const random = seededRandom(seed);
  const start = now - DEMO_HISTORY_DAYS * DAY;
  // The simulated clock the services read; it only moves forward.
  let clock = start;
  const advance = (ms: number) => {
    clock = Math.max(clock, Math.min(clock + ms, now - MINUTE));
  };

  // Past prices from the seeded chart history when there is one, so trades match the chart.
  const priceFeed = createSimulatedPriceFeed({ tickSeconds: 10, random: random.next, now: () => clock });
  const pastPrice = pastPrices(db);
  const setPrices = () =>
    priceFeed.resumeFrom({ at: clock, usd: { BTC: pastPrice('BTC', clock), USDT: pastPrice('USDT', clock) } });

  const services = createServices({
    db,
    priceFeed,
    config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'Coinfair <no-reply@coinfair.example>', UPLOADS_DIR: 'data/uploads' },
    log: { info() {}, error() {} },
    now: () => clock,
    mailer: { async send() {} },
    smsSender: { async send() {} },
    bus: silentBus,
  });
  const accounts = createAccountsRepository(db);

  const vendors = db
    .select({
      id: users.id,
      createdAt: users.createdAt,
      lastSeenAt: users.lastSeenAt,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(like(users.email, `%${DEMO_VENDOR_DOMAIN}`))
    .orderBy(asc(users.id))
    .all();
  // The demo password's hash, as every demo account has it (hashing again costs ~50 ms).
  const passwordHash = vendors[0]?.passwordHash;
  if (passwordHash === undefined) return { buyers: 0, completed: 0, cancelled: 0, feedback: 0 };
  const demoPasswordHash: string = passwordHash;

  // One transaction: the history is all there or not at all, and its thousands of writes commit once.
  return db.$client.transaction(history).immediate();

  function history(): DemoHistoryResult {
    const buyers = insertBuyers(db, random, demoPasswordHash, start);
    // Two of three buyers also sell to the vendors' buy offers: they need coins for the escrow.
    const sellers = buyers.filter((_, i) => i % 3 !== 2);
    for (const id of sellers) postDemoFunding(services.ledger, id, DEMO_BUYER_FUNDS);

    const slots = planSlots(db, random, vendors, start, now);

    const touch = db.$client.prepare<[number, number]>('UPDATE users SET last_seen_at = ? WHERE id = ?');
    const seen = (...ids: number[]) => {
      for (const id of ids) touch.run(clock, id);
    };
    const authOf = (id: number): AuthState => {
      const user = accounts.userById(id);
      const profile = accounts.userProfile(id);
      if (!user || !profile) throw new Error(`demo history: no user ${id}`);
      const session = {
        id: `demo-history-${id}`,
        userId: id,
        csrfToken: '',
        createdAt: clock,
        expiresAt: clock + DAY,
        ip: '',
        userAgent: 'demo-history',
        publicId: 'ses_demo',
        lastUsedAt: clock,
      };
      return { session, user, profile };
    };

    const result: DemoHistoryResult = { buyers: buyers.length, completed: 0, cancelled: 0, feedback: 0 };
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as Slot;
      clock = Math.max(clock, slot.at);
      // A trade that could not end before `now` is left out (planning leaves room; see planSlots).
      if (clock > now - LAST_TRADE_BEFORE_NOW) break;
      setPrices();
      const started = startSlot(slot);
      if (!started) {
        // Early on nobody has the past trades some offers ask for: the vendor trades a few days later.
        const later = clock + random.int(1, 6) * DAY;
        if (later < now - 3 * DAY) {
          slots.splice(i + 1, 0, { ...slot, at: later });
          slots.sort((a, b) => a.at - b.at);
        }
        continue;
      }
      const { hash, buyerId, sellerId, vendorId } = started;
      if (slot.cancel) {
        advance(random.int(3, 20) * MINUTE);
        seen(buyerId);
        services.trades.cancel({ auth: authOf(buyerId), hash });
        result.cancelled++;
        continue;
      }
      advance(random.int(2, 25) * MINUTE);
      seen(buyerId);
      services.trades.markPaid({ auth: authOf(buyerId), hash });
      advance(random.int(1, 40) * MINUTE);
      seen(sellerId);
      services.trades.release({ auth: authOf(sellerId), hash });
      result.completed++;
      // Both sides rate, in either order, within the next hours; now and then one is unhappy.
      const raters = random.chance(0.5) ? [buyerId, sellerId] : [sellerId, buyerId];
      for (const from of raters) {
        advance(random.int(1, 90) * MINUTE);
        seen(from);
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
        services.feedback.give({ auth: authOf(from), hash, rating, message: random.pick(list) });
        result.feedback++;
        // A vendor answers most criticism.
        const to = from === buyerId ? sellerId : buyerId;
        if (rating === 'negative' && to === vendorId && random.chance(0.7)) {
          advance(random.int(10, 120) * MINUTE);
          seen(vendorId);
          services.feedback.reply({ auth: authOf(vendorId), hash, reply: random.pick(REPLIES) });
        }
      }
    }

    // The demo vendors' presence as the demo seed set it, unless a trade saw them later.
    const lastSeen = db.$client.prepare<[number], number>('SELECT last_seen_at FROM users WHERE id = ?').pluck();
    db.transaction((tx) => {
      for (const vendor of vendors) {
        const at = Math.max(vendor.lastSeenAt, lastSeen.get(vendor.id) ?? 0);
        tx.update(users).set({ lastSeenAt: at }).where(eq(users.id, vendor.id)).run();
      }
    });
    return result;

    /**
     * Starts the slot's trade as the offer page would: the first of the vendor's offers a buyer of
     * the pool may start (no start-gate blocks), at an amount inside the limits the page shows.
     */
    function startSlot(slot: Slot) {
      // The vendor is online: the start gate refuses offers of owners who are not.
      seen(slot.vendorId);
      for (const offerHash of slot.offerHashes) {
        for (const responderId of shuffled(random, buyers)) {
          const auth = authOf(responderId);
          const { offer, blocks, limits } = services.offers.get({ hash: offerHash, auth, locale: 'en' });
          // Most often an offer asking for more past trades than this buyer has yet.
          if (blocks.length > 0 || (offer.type === 'buy' && !sellers.includes(responderId))) continue;
          const fiat = amountFor(random, offer, limits);
          const crypto = offer.cryptoCurrency as 'BTC' | 'USDT';
          seen(responderId);
          try {
            const trade = services.trades.start({
              auth,
              input: {
                offer_hash: offer.hash,
                amount_fiat: fiat,
                amount_btc: (Number(fiat) / offer.fiatPricePerCrypto).toFixed(CRYPTO_DECIMALS[crypto]),
                gold_terms: offer.isGold ? 1 : 0,
                original_data: offer.originalData,
              },
              locale: 'en',
              ip: null,
            });
            const vendorSells = offer.type === 'sell';
            return {
              hash: trade.hash,
              vendorId: slot.vendorId,
              buyerId: vendorSells ? responderId : slot.vendorId,
              sellerId: vendorSells ? slot.vendorId : responderId,
            };
          } catch (error) {
            // A limit or a balance the pool cannot meet right now: the next buyer, or the next offer.
            if (!(error instanceof AppError)) throw error;
          }
        }
      }
      return undefined;
    }
  }
}

/** The demo buyers: e-mail, phone and identity verified (level 3), registered before the history. */
function insertBuyers(db: Db, random: SeededRandom, passwordHash: string, start: number): number[] {
  return db.transaction(
    (tx) =>
      BUYER_NAMES.map((name, i) => {
        const createdAt = start - random.int(20, 600) * DAY;
        const verifiedAt = createdAt + random.int(1, 15) * DAY;
        const { id } = tx
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
          .returning({ id: users.id })
          .get();
        // +1 555 01xx xxxx, like the vendors' (numbers reserved for fiction), in a range of their own.
        tx.insert(phones)
          .values({ userId: id, number: `+1555011${String(i).padStart(4, '0')}`, verifiedAt, codesSentAt: [] })
          .run();
        return id;
      }),
    { behavior: 'immediate' },
  );
}

/**
 * 4 to 10 completed trades per vendor and now and then a cancelled one, each on one of the
 * vendor's active offers at a time after both the vendor and the offer existed; sorted by time.
 */
function planSlots(
  db: Db,
  random: SeededRandom,
  vendors: { id: number; createdAt: number }[],
  start: number,
  now: number,
): Slot[] {
  const slots: Slot[] = [];
  // Planned up to two days ago: trades run one after the other, and a bunch near the end could
  // otherwise run into the cut-off.
  const latest = now - 2 * DAY;
  // What a buyer of the pool could ever start: active, no gift card (those start elsewhere), no
  // proofs to upload, open to people the vendor has not marked trusted.
  const startable = db.$client.prepare<[number], { hash: string; createdAt: number }>(
    `SELECT o.hash, o.created_at AS createdAt FROM offers o
       JOIN payment_methods m ON m.id = o.payment_method_id
       JOIN payment_groups g ON g.id = m.group_id
     WHERE o.owner_id = ? AND o.status = 'active' AND g.slug <> 'gift-cards'
       AND o.trade_requirements = '[]' AND o.show_only_trusted_user = 0
     ORDER BY o.id`,
  );
  for (const vendor of vendors) {
    // Offers that existed, with their vendor, at least a day before the last trade may start.
    const own = startable
      .all(vendor.id)
      .map((o) => ({ hash: o.hash, from: Math.max(start, vendor.createdAt, o.createdAt) + HOUR }))
      .filter((o) => o.from < latest - DAY);
    if (own.length === 0) continue;
    const completed = random.int(4, 10);
    const cancelled = random.chance(0.35) ? random.int(1, 2) : 0;
    for (let i = 0; i < completed + cancelled; i++) {
      // Planned on one offer; the others that existed by then are the fallback when nobody may start it.
      const offer = random.pick(own);
      const at = offer.from + Math.floor(random.next() * (latest - offer.from));
      const others = own.filter((o) => o !== offer && o.from <= at).map((o) => o.hash);
      slots.push({
        vendorId: vendor.id,
        offerHashes: [offer.hash, ...shuffled(random, others)],
        at,
        cancel: i >= completed,
      });
    }
  }
  return slots.sort((a, b) => a.at - b.at || a.vendorId - b.vendorId);
}

/**
 * A round amount in the offer's currency, as a person types it in the start widget: from the
 * minimum the page shows, mostly small, never above its maximum or TRADE_USD_CAP.
 */
function amountFor(random: SeededRandom, offer: OfferView, limits: { min: number; max: number }): string {
  const fiatPerUsd = offer.fiatUSDPricePerBtc > 0 ? offer.fiatPricePerCrypto / offer.fiatUSDPricePerBtc : 1;
  const high = Math.min(limits.max, TRADE_USD_CAP * fiatPerUsd);
  let amount = limits.min;
  if (high > limits.min) {
    const raw = limits.min + (high - limits.min) * random.next() ** 2;
    const step = Math.max(10 ** (Math.floor(Math.log10(raw)) - 1), 10 ** -offer.fiatDecimals);
    const rounded = Math.round(raw / step) * step;
    if (rounded >= limits.min && rounded <= high) amount = rounded;
  }
  return amount.toFixed(offer.fiatDecimals);
}

/** US dollars per coin at a moment: the newest seeded chart point at or before it, else the anchor. */
function pastPrices(db: Db): (crypto: CryptoCode, atMs: number) => number {
  const series = new Map<string, { at: number; usd: number }[]>();
  const rows = db
    .select({ crypto: priceHistory.crypto, at: priceHistory.at, usd: priceHistory.usd })
    .from(priceHistory)
    .orderBy(asc(priceHistory.at))
    .all();
  for (const row of rows) {
    const list = series.get(row.crypto) ?? [];
    list.push({ at: row.at, usd: row.usd });
    series.set(row.crypto, list);
  }
  return (crypto, atMs) => {
    const list = series.get(crypto) ?? [];
    const at = Math.floor(atMs / 1000);
    let lo = 0;
    let hi = list.length - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const point = list[mid] as { at: number; usd: number };
      if (point.at <= at) {
        found = point.usd;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found ?? SIMULATED_MARKET[crypto].anchor;
  };
}

function shuffled<T>(random: SeededRandom, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
