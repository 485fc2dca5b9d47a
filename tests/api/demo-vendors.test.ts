import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_DOMAIN, DEMO_VENDOR_FUNDS, readyDemoVendors } from '../../db/seed/demo.ts';
import { ledgerCommands } from '../../server/admin/ledger-commands.ts';
import { createTestApp } from '../support/test-app.ts';
import { tradeFixtures } from '../support/trade-fixtures.ts';

// A fresh install's demo market can be traded against (db/seed/demo.ts, readyDemoVendors): the
// demo vendors are fully verified and funded through the ledger, so a newcomer's first trade on a
// demo sell offer starts. The suite's template database leaves this step out (its ledger and
// phone tests count from zero); here it runs on a copy.

let t: ReturnType<typeof createTestApp>;
afterEach(() => t?.close());

const demoVendorIds = () =>
  t.db.$client.prepare(`SELECT id FROM users WHERE email LIKE ?`).pluck().all(`%${DEMO_VENDOR_DOMAIN}`) as number[];

describe('demo vendors', () => {
  it('are verified to the highest level and funded, with the ledger whole', () => {
    t = createTestApp();
    const ids = demoVendorIds();
    expect(readyDemoVendors(t.db, t.clock.now)).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(30);
    for (const id of ids) {
      expect(t.services.verification.tradeAllowance(id).level).toBe(4);
      expect(t.services.ledger.balances(id)).toEqual(DEMO_VENDOR_FUNDS);
    }
    expect(ledgerCommands(t.db).verify()).toMatch(/^Ledger OK/);
  });

  it('let a newcomer start a trade on a demo sell offer', async () => {
    t = createTestApp();
    readyDemoVendors(t.db, t.clock.now);
    const f = tradeFixtures(t);
    f.everyoneOnline();
    const candidates = t.db.$client
      .prepare(
        `SELECT o.hash FROM offers o
           JOIN users u ON u.id = o.owner_id
           JOIN fiat_currencies f ON f.id = o.fiat_currency_id
           JOIN crypto_currencies c ON c.id = o.crypto_currency_id
           JOIN payment_methods m ON m.id = o.payment_method_id
         WHERE u.email LIKE ? AND o.status = 'active' AND o.type = 'sell' AND c.code = 'BTC'
           AND f.code = 'USD' AND m.slug NOT LIKE '%gift-card%' AND o.show_only_trusted_user = 0
           AND o.fiat_min_minor <= 100000 AND o.trade_requirements = '[]'`,
      )
      .pluck()
      .all(`%${DEMO_VENDOR_DOMAIN}`) as string[];
    const buyer = await f.signedIn('buyer@example.com');
    // The first one the offer page would let the newcomer start, as a person browsing would find it.
    let startable: { view: Parameters<typeof f.startTrade>[1]; min: number } | undefined;
    for (const hash of candidates) {
      const { data, meta } = await (await buyer.get(`/rest/v1/offers/${hash}`)).json();
      if (meta.canStartTrade && meta.limits.min <= 1000) {
        startable = { view: data, min: meta.limits.min };
        break;
      }
    }
    if (!startable) throw new Error(`none of ${candidates.length} demo USD sell offers can be started`);
    // Within the newcomer's level-1 limit (1,000 USD per 30 days).
    const trade = await f.startTrade(buyer, startable.view, String(startable.min));
    expect(trade.status).toBe('active_funded');
  });
});
