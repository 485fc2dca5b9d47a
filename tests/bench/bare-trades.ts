// The baseline of the trades benchmark: the same lifecycles (start → paid → release) through the
// trades service directly over the database file, without HTTP, as fast as one process can, for
// `seconds`. Prints `lifecycles <count> <seconds>`.
import { openDatabase } from '../../db/client.ts';
import type { AuthState } from '../../server/http/auth.ts';
import { createServices } from '../../server/services/container.ts';
import { personContext, systemContext } from '../../server/services/context.ts';
import { createSimulatedPriceFeed } from '../../server/services/price-feed/simulated.ts';

const [path, pairsText, secondsText] = process.argv.slice(2);
if (!path) throw new Error('usage: bare-trades.ts <db> <pairs> [seconds]');
const db = openDatabase(path);
const services = createServices({
  db,
  priceFeed: createSimulatedPriceFeed({ tickSeconds: 10 }),
  config: { AUTH_CHALLENGE: 'off', MAIL_FROM: 'bench <b@example.com>', UPLOADS_DIR: '/tmp', GEOIP: 'off' },
  log: { info() {}, error() {} },
});
const authOf = async (email: string): Promise<AuthState> => {
  const id = (db.$client.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: number }).id;
  const { token } = await services.sessions.create(systemContext('bench'), {
    userId: id,
    client: { ip: '127.0.0.1', userAgent: 'bench' },
  });
  return (await services.sessions.validate(token)) as AuthState;
};
const pairs = [];
for (let i = 0; i < Number(pairsText ?? 20); i++) {
  const buyer = await authOf(`benchbuyer${i}@bench.example`);
  const vendor = await authOf(`benchvendor${i}@bench.example`);
  const [offer] = await services.offers.listForUser(personContext(vendor), {
    username: `benchvendor${i}`,
    locale: 'en',
  });
  if (!offer) throw new Error('no offer');
  pairs.push({ buyer, vendor, offer });
}
const seconds = Number(secondsText ?? 5);
const until = performance.now() + seconds * 1000;
let count = 0;
while (performance.now() < until) {
  const { buyer, vendor, offer } = pairs[count % pairs.length] as (typeof pairs)[number];
  const trade = await services.trades.start(personContext(buyer), {
    offer_hash: offer.hash,
    amount_fiat: '50',
    amount_btc: '0.00050000',
    gold_terms: 0,
    original_data: offer.originalData,
    locale: 'en',
    ip: '127.0.0.1',
  });
  await services.trades.markPaid(personContext(buyer), { hash: trade.hash });
  await services.trades.release(personContext(vendor), { hash: trade.hash });
  count++;
}
console.log(`lifecycles ${count} ${seconds}`);
