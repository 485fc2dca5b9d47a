import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createInProcessBus, type EventBus } from '../../server/realtime/bus.ts';
import { tradeChannel } from '../../server/realtime/channels.ts';
import { TRADES_CHANNEL } from '../../server/services/trades/trades.ts';
import { giftCardFixtures } from '../support/gift-card-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialect } from '../support/test-dialect.ts';
import type { Browser } from '../support/trade-fixtures.ts';

// Gift codes are secrets (issue 18, "Done means"): a card saved with a known code goes through a
// whole trade (start, chat, mark paid, reveal, release) and the code shows up only in the answers
// of the seller's reveal and the seller's check after it. Never in anything the buyer, a stranger
// or the seller before the reveal reads, in a live event, a mail, the server's log, or the
// database in plain text (every table read back; on SQLite the file's bytes as well).

const CODE = 'SECRET-GIFT-CODE-4242';
/** The code as saved and in every other spelling a careless log or column might hold. */
const SPELLINGS = [CODE, 'SECRETGIFTCODE4242', 'secret-gift-code-4242', 'SECRET GIFT CODE 4242'];
const holdsCode = (text: string) => SPELLINGS.some((spelling) => text.toUpperCase().includes(spelling.toUpperCase()));

let t: TestApp;
let bus: EventBus;
let g: ReturnType<typeof giftCardFixtures>;

beforeEach(async () => {
  bus = createInProcessBus();
  t = await createTestApp({ bus });
  g = giftCardFixtures(t);
});
afterEach(() => t?.close());

/** A browser whose every answer is kept, with the request that got it. */
function recorded(b: Browser, answers: string[]): Browser {
  const send: Browser['send'] = async (path, init) => {
    const res = await b.send(path, init);
    answers.push(`${init?.method ?? 'GET'} ${path} → ${res.status} ${await res.clone().text()}`);
    return res;
  };
  return { ...b, send, get: (path) => send(path), post: (path, json = {}) => send(path, { method: 'POST', json }) };
}

/** Every table's rows as text, on either engine. */
async function everyRow(): Promise<string[]> {
  const tables =
    testDialect() === 'postgres'
      ? await t.db.sql.all<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        )
      : await t.db.sql.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`);
  expect(tables.map((table) => table.name)).toContain('gift_cards');
  const texts: string[] = [];
  for (const { name } of tables) {
    const rows = await t.db.sql.all(`SELECT * FROM "${name}"`);
    texts.push(`${name}: ${JSON.stringify(rows)}`);
  }
  return texts;
}

it('never shows a gift code to anyone who has not revealed it, nor keeps it in plain text', async () => {
  const market = await g.giftMarket();
  const offer = await g.giftOffer(market.vendor);
  const hidden: string[] = [];
  const sellersAfterReveal: string[] = [];
  const buyer = recorded(market.buyer, hidden);
  const stranger = recorded(market.stranger, hidden);
  const moderator = recorded(market.moderator, hidden);
  let seller = recorded(market.vendor, hidden);
  const events: unknown[] = [];
  bus.subscribe(TRADES_CHANNEL, (event) => events.push(event));

  const saved = await buyer.post('/rest/v1/gift-cards', await g.cardBody({ code: CODE, value: 100 }));
  expect(saved.status).toBe(201);
  const cardId = ((await saved.json()) as { data: { id: string } }).data.id;
  const started = await buyer.post('/rest/v1/gift-cards/trade/start', await g.giftStartBody(offer, '100', [cardId]));
  expect(started.status, await started.clone().text()).toBe(201);
  const hash = ((await started.json()) as { data: { hash: string } }).data.hash;
  bus.subscribe(tradeChannel(hash), (event) => events.push(event));
  const path = `/rest/v1/trade/${hash}`;

  /** What each person reads of the trade and their account. */
  const lookAround = async (b: Browser) => {
    for (const read of [
      '/rest/v1/gift-cards',
      `/rest/v1/gift-cards/unused/${offer.hash}?fiatAmount=100`,
      path,
      `${path}/messages`,
      `${path}/gift-cards`,
      '/rest/v1/trade/active',
      '/rest/v1/notifications?limit=50&offset=0&name=inbox',
      '/rest/v1/users/current_user',
    ]) {
      const res = await b.get(read);
      // The buyer reads each of them: an answer refused would prove nothing.
      if (b === buyer) expect(res.status, read).toBe(200);
    }
  };

  expect((await buyer.post(`${path}/messages`, { text: 'Card attached, please check.' })).status).toBe(201);
  expect((await seller.post(`${path}/messages`, { text: 'Will look once you mark it paid.' })).status).toBe(201);
  for (const b of [buyer, seller, stranger, moderator]) await lookAround(b);
  expect((await buyer.post(`${path}/paid`)).status).toBe(200);
  for (const b of [buyer, seller]) await lookAround(b);

  // From the reveal on, the seller may read the code.
  seller = recorded(market.vendor, sellersAfterReveal);
  expect((await seller.post(`${path}/gift-cards/${cardId}/reveal`)).status).toBe(200);
  await seller.get(`${path}/gift-cards`);
  expect((await seller.post(`${path}/release`, {})).status).toBe(200);
  for (const b of [buyer, stranger, moderator]) await lookAround(b);
  await buyer.get(`/rest/v1/users/${market.buyerUser.username}/past-trades?page=1&status=all&type=all`);

  // The test can see the code where it is meant to be…
  expect(sellersAfterReveal.filter(holdsCode)).toHaveLength(2);
  // …and it is nowhere else.
  expect(hidden.length).toBeGreaterThan(30);
  expect(hidden.filter(holdsCode)).toEqual([]);
  expect(events.length).toBeGreaterThan(0);
  expect(JSON.stringify(events)).not.toContain('4242');
  expect([...t.sent, ...t.sms].filter((message) => holdsCode(JSON.stringify(message)))).toEqual([]);
  expect(t.logged.filter(holdsCode)).toEqual([]);
  expect((await everyRow()).filter(holdsCode).map((text) => text.slice(0, 40))).toEqual([]);
  if (testDialect() === 'sqlite') {
    for (const file of [t.dbUrl, `${t.dbUrl}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      for (const spelling of SPELLINGS) expect(bytes.includes(spelling), `${file}: ${spelling}`).toBe(false);
      expect(bytes.includes(Buffer.from(CODE, 'utf16le'))).toBe(false);
    }
  }
});
