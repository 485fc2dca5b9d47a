import { randomBytes } from 'node:crypto';
import { fixedPriceOfferBody } from '../support/trade-fixtures.ts';
import type { Cluster } from './cluster-harness.ts';
import { dataOf, type WebClient, webClient } from './web-client.ts';

// People, money and offers on the cluster, made the way the product makes them: accounts through
// the sign-up endpoint, coins through the simulated chain's operator commands. Only what no page
// can do (phone, identity and address checks by a moderator) is written to the tables directly.

export const PASSWORD = 'Cluster-test-2026!';

export interface Person {
  email: string;
  publicId: string;
  client: WebClient;
}

/** Signs up through `base` (a vendor when asked); the client holds the new session. */
export async function signUp(base: string, { vendor = false } = {}): Promise<Person> {
  const email = `${vendor ? 'vendor' : 'buyer'}-${randomBytes(4).toString('hex')}@cluster.example.org`;
  const client = webClient();
  const body = { email, password: PASSWORD, ...(vendor ? { vendors_terms_accepted: 1 } : {}) };
  await dataOf(await client.post(base, '/rest/v1/auth/register', body), 201);
  const me = await dataOf<{ id: string }>(await client.get(base, '/rest/v1/users/me'));
  return { email, publicId: me.id, client };
}

/** Every step of the verification ladder done (level 4: the highest trading limit). */
export async function verifyFully(cluster: Cluster, person: Person): Promise<void> {
  const now = Date.now();
  const row = await cluster.db.get<{ id: number }>('SELECT id FROM users WHERE public_id = ?', [person.publicId]);
  if (!row) throw new Error(`no user ${person.publicId}`);
  await cluster.db.run(
    'UPDATE users SET is_email_verified = 1, id_verified_at = ?, address_verified_at = ? WHERE id = ?',
    [now, now, row.id],
  );
  await cluster.db.run(
    `INSERT INTO phones (user_id, number, verified_at, codes_sent_at) VALUES (?, ?, ?, '[]')
     ON CONFLICT (user_id) DO UPDATE SET verified_at = excluded.verified_at`,
    [row.id, `+4915100${String(row.id).padStart(5, '0')}`, now],
  );
}

/** The person's wallet balance in base units, as the ledger holds it. */
export async function balance(cluster: Cluster, person: Person, currency: 'BTC' | 'USDT'): Promise<number> {
  const row = await cluster.db.get<{ balance: string | number }>(
    `SELECT a.balance FROM ledger_accounts a JOIN users u ON u.id = a.owner_id
     WHERE u.public_id = ? AND a.kind = 'user_wallet' AND a.currency = ?`,
    [person.publicId, currency],
  );
  return Number(row?.balance ?? 0);
}

/** A deposit on the simulated chain, mined until it is credited (`npm run admin -- chain:…`). */
export async function deposit(cluster: Cluster, person: Person, amount: string, currency: 'BTC' | 'USDT') {
  const before = await balance(cluster, person, currency);
  const sent = await cluster.admin('chain:deposit', person.email, amount, currency);
  if (sent.status !== 0) throw new Error(`chain:deposit failed:\n${sent.output}`);
  const ticks = /chain:mine (\d+)/.exec(sent.output)?.[1] ?? '2';
  const mined = await cluster.admin('chain:mine', ticks);
  if (mined.status !== 0) throw new Error(`chain:mine failed:\n${mined.output}`);
  // The servers' chain job may have credited it first; either way it is credited once.
  const after = await balance(cluster, person, currency);
  if (after <= before) throw new Error(`the deposit was not credited:\n${sent.output}\n${mined.output}`);
}

/** Everyone online now, so the start gate's presence rule lets trades start. */
export const everyoneOnline = (cluster: Cluster) => cluster.db.run('UPDATE users SET last_seen_at = ?', [Date.now()]);

export interface Offer {
  hash: string;
  originalData: string;
  fiatPricePerCrypto: number;
}

/** A sell offer at a fixed 100,000 USD per BTC, so amounts are round. */
export async function createOffer(base: string, vendor: Person): Promise<Offer> {
  return dataOf<Offer>(await vendor.client.post(base, '/rest/v1/offers', fixedPriceOfferBody()), 201);
}

/** What the start widget posts for `fiat` USD at the offer's price. */
export const startBody = (offer: Offer, fiat = '50') => ({
  offer_hash: offer.hash,
  amount_fiat: fiat,
  amount_btc: (Number(fiat) / offer.fiatPricePerCrypto).toFixed(8),
  gold_terms: 0,
  original_data: offer.originalData,
});

export interface Trade {
  hash: string;
  status: string;
}

export async function startTrade(base: string, buyer: Person, offer: Offer, fiat = '50'): Promise<Trade> {
  return dataOf<Trade>(await buyer.client.post(base, '/rest/v1/trade', startBody(offer, fiat)), 201);
}

/** A vendor with an offer and `btc` on the chain, and a buyer; both fully verified and online. */
export async function openMarket(cluster: Cluster, btc: string) {
  const vendor = await signUp(cluster.a.url, { vendor: true });
  const buyer = await signUp(cluster.b.url);
  for (const person of [vendor, buyer]) await verifyFully(cluster, person);
  await deposit(cluster, vendor, btc, 'BTC');
  await everyoneOnline(cluster);
  const offer = await createOffer(cluster.a.url, vendor);
  return { vendor, buyer, offer };
}
