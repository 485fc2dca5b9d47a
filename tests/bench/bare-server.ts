// The baseline: a bare node:http server doing the least work that produces the same answer as
// ours. `static <file>` sends the file's bytes from memory; `api <db>` runs the same prepared
// query as GET /rest/v1/currencies and serializes it; `session <db>` hashes the session cookie,
// makes the lookups of GET /rest/v1/users/me (the BTC wallet's balance and incoming included) and answers the same JSON with the same headers.
// `offers <db>` and `offers-cached <db>` answer GET /rest/v1/offers?type=buy&currency=USD&fiat-min=…
// through the offers service, without and with a cache (below).
// Prints `ready <port>`.
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';

const [mode, path] = process.argv.slice(2);
if (!path) throw new Error('usage: bare-server.ts static|api|session|offers|offers-cached <path>');

let handler: (
  res: import('node:http').ServerResponse,
  req: import('node:http').IncomingMessage,
) => void | Promise<void>;
if (mode === 'static') {
  const body = readFileSync(path);
  handler = (res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  };
} else if (mode === 'session') {
  // What GET /rest/v1/users/me does, without the framework: the same reads (the session with its
  // user and profile, the verification documents and 30-day volume, the traded and held BTC) as
  // plain prepared statements in one read transaction, countries read once as the places service
  // does, and the answer shaped by the product's own pure functions (toCurrentUser, levelOf,
  // allowanceOf, checkView), so it is ours byte for byte and only the framework's cost differs.
  // The signed-in person's currency is US dollars (the bench's demo buyer): no rate to apply.
  const { toCurrentUser, profileFacts } = await import('../../server/services/accounts/current-user.ts');
  const { levelOf, allowanceOf, LIMIT_WINDOW_MS } = await import('../../server/services/verification/levels.ts');
  const { checkView } = await import('../../server/services/verification/documents.ts');
  const { localizedCountryName } = await import('../../server/services/reference/display-names.ts');
  const { BTC_TRADED_SQL } = await import('../../server/services/profiles/repository.ts');
  const db = new Database(path, { readonly: true });
  type Row = Record<string, unknown>;
  const countries = new Map<string, Row>();
  const methods = new Map<unknown, { slug: string; name: string }[]>();
  for (const m of db
    .prepare(
      `SELECT cpm.country_id, pm.slug, pm.name FROM country_payment_methods cpm
       JOIN payment_methods pm ON pm.id = cpm.payment_method_id ORDER BY cpm.country_id, cpm.position`,
    )
    .all() as Row[])
    methods.set(m.country_id, [
      ...(methods.get(m.country_id) ?? []),
      { slug: m.slug as string, name: m.name as string },
    ]);
  for (const c of db
    .prepare('SELECT c.id, c.iso, c.name, f.code FROM countries c JOIN fiat_currencies f ON f.id = c.currency_id')
    .all() as Row[])
    countries.set(c.iso as string, c);
  const countryPlace = (iso: string) => {
    const c = countries.get(iso);
    return (
      c && {
        id: c.id as number,
        iso: c.iso as string,
        name: localizedCountryName('en', c.iso as string, c.name as string),
        currency: c.code as string,
        popularPaymentMethods: methods.get(c.id) ?? [],
      }
    );
  };
  const session = db.prepare('SELECT * FROM sessions WHERE id = ?');
  const user = db.prepare('SELECT * FROM users WHERE id = ?');
  const profile = db.prepare(
    `SELECT c.iso AS countryIso, f.code AS currencyCode, s.sound_notifications AS soundNotifications,
       s.avatar_url AS avatarUrl, t.confirmed_at AS twoFactorConfirmedAt, t.for_login AS twoFactorLogin,
       t.for_sendout AS twoFactorSendout, t.for_release AS twoFactorRelease, p.number AS phoneNumber,
       p.verified_at AS phoneVerifiedAt,
       (SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = u.id AND currency = 'BTC') AS btcBalance,
       (SELECT balance FROM ledger_accounts WHERE kind = 'affiliate_earnings' AND owner_id = u.id AND currency = 'BTC') AS affiliateBtc,
       (SELECT coalesce(sum(amount), 0) FROM chain_transactions WHERE user_id = u.id AND status = 'incoming' AND currency = 'BTC') AS btcIncoming,
       (SELECT balance FROM ledger_accounts WHERE kind = 'kiosk_balance' AND owner_id = u.id AND currency = 'BTC') AS kioskBtc,
       (SELECT balance FROM ledger_accounts WHERE kind = 'merchant_balance' AND owner_id = u.id AND currency = 'BTC') AS merchantBtc,
       (SELECT count(*) FROM offers WHERE owner_id = u.id AND status = 'active') AS activeOffers
     FROM users u LEFT JOIN countries c ON c.id = u.country_id LEFT JOIN fiat_currencies f ON f.id = u.currency_id
       LEFT JOIN user_settings s ON s.user_id = u.id LEFT JOIN two_factor t ON t.user_id = u.id
       LEFT JOIN phones p ON p.user_id = u.id WHERE u.id = ?`,
  );
  const documents = db.prepare('SELECT * FROM verification_documents WHERE user_id = ? ORDER BY id DESC');
  const cancelled = "('cancelled_buyer', 'cancelled_seller', 'cancelled_system')";
  const volume = db
    .prepare(
      `SELECT (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades WHERE buyer_id = ? AND started_at >= ? AND status NOT IN ${cancelled})
        + (SELECT coalesce(sum(usd_amount_cents), 0) FROM trades WHERE seller_id = ? AND started_at >= ? AND status NOT IN ${cancelled})`,
    )
    .pluck();
  const traded = db.prepare(BTC_TRADED_SQL).pluck();
  const read = db.transaction((id: string) => {
    const found = session.get(id) as Row | undefined;
    const u = found && (found.expires_at as number) > Date.now() && (user.get(found.user_id) as Row | undefined);
    if (!u) return undefined;
    return {
      u,
      profile: profile.get(u.id) as Row,
      documents: documents.all(u.id) as { kind: string; status: string }[],
      used: volume.get(u.id, Date.now() - LIMIT_WINDOW_MS, u.id, Date.now() - LIMIT_WINDOW_MS) as number,
      traded: traded.get(u.id, u.id) as number,
    };
  });
  const bool = (value: unknown) => value === 1;
  handler = (res, req) => {
    const token = /(?:^|; )session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const row = read(hash('sha256', token));
    let body: string;
    if (row) {
      const { u, profile: p, documents: docs, used, traded: btcTraded } = row;
      const person = {
        publicId: u.public_id,
        username: u.username,
        email: u.email,
        fullName: u.full_name,
        locale: u.locale,
        role: u.role,
        status: u.status,
        completedTrades: u.completed_trades,
        referralCode: u.referral_code,
        idVerifiedAt: u.id_verified_at,
        addressVerifiedAt: u.address_verified_at,
        isUsernameChanged: bool(u.is_username_changed),
        isEmailVerified: bool(u.is_email_verified),
        isVendor: bool(u.is_vendor),
        isKiosk: bool(u.is_kiosk),
        isMerchant: bool(u.is_merchant),
        isAffiliate: bool(u.is_affiliate),
        isAffiliatePayForSellSide: bool(u.is_affiliate_pay_for_sell_side),
      } as unknown as Parameters<typeof toCurrentUser>[0];
      const { extras } = profileFacts({
        ...p,
        twoFactorLogin: bool(p.twoFactorLogin),
        twoFactorSendout: bool(p.twoFactorSendout),
        twoFactorRelease: bool(p.twoFactorRelease),
        soundNotifications: p.soundNotifications === null ? null : bool(p.soundNotifications),
      } as unknown as Parameters<typeof profileFacts>[0]);
      const steps = {
        email: person.isEmailVerified,
        phone: extras.isPhoneVerified ?? false,
        identity: person.idVerifiedAt !== null,
        address: person.addressVerifiedAt !== null,
      };
      const level = levelOf(steps);
      const allowance = allowanceOf(level, used);
      const current: Parameters<typeof checkView>[2] = {};
      for (const doc of docs) current[doc.kind as keyof typeof current] ??= doc as never;
      const identity = checkView('identity', steps.identity, current);
      const address = checkView('address', steps.address, current);
      const nextStep = allowance.next?.step;
      const nextCheck = nextStep === 'identity' ? identity : nextStep === 'address' ? address : null;
      const nearLimit = allowance.limitUsdCents > 0 && allowance.unusedUsdCents < allowance.limitUsdCents * 0.2;
      const here = countryPlace('US');
      const own = p.countryIso && p.countryIso !== 'US' ? countryPlace(p.countryIso as string) : here;
      body = JSON.stringify({
        data: toCurrentUser(
          person,
          {
            country: own ?? here ?? null,
            visitorCountryIso: 'US',
            locationCurrency: here?.currency ?? 'USD',
            currency: p.currencyCode as string | null,
          },
          'en',
          {
            ...extras,
            btcTraded,
            kioskBtc: Number(p.kioskBtc ?? 0),
            merchantBtc: Number(p.merchantBtc ?? 0),
            activeOffers: Number(p.activeOffers ?? 0),
            verification: {
              isIdVerificationPending: !steps.identity && identity.status === 'pending',
              isDocumentVerified: identity.documents.id_front?.status === 'approved',
              isAddressVerified: steps.address,
              isAddressVerificationPending: !steps.address && address.status === 'pending',
              kycLevelCheck: { level, unusedTradingVolumeInFiatCurrency: Math.floor(allowance.unusedUsdCents) / 100 },
              showKYCVerificationBanner:
                level >= 1 && nextStep !== undefined && nextCheck?.status !== 'pending' && (level < 3 || nearLimit),
            },
          },
        ),
      });
    } else body = '{"error":"UNAUTHENTICATED"}';
    res.writeHead(row ? 200 : 401, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  };
} else if (mode === 'offers' || mode === 'offers-cached') {
  // The offer search without the framework: the offers service over the same database (its
  // filters, prepared search and offer views, the same JSON as GET /rest/v1/offers) called from
  // node:http for the query's `fiat-min`, a visitor in the United States. `offers` answers a new
  // amount from the search each time (the service's own cache misses, as ours does);
  // `offers-cached` keeps each answer's JSON for the same 10-second bucket as ours.
  const { readConfig } = await import('../../server/config.ts');
  const { connectDatabase } = await import('../../db/database.ts');
  const { createServices } = await import('../../server/services/container.ts');
  const { createPriceFeed } = await import('../../server/services/price-feed/create.ts');
  const { visitorContext } = await import('../../server/services/context.ts');
  const config = readConfig({ ...process.env, DATABASE_URL: path });
  const log = { info: () => {}, error: (...parts: unknown[]) => console.error(...parts) };
  const services = createServices({
    db: await connectDatabase(path),
    // Prices as ours start, without ticks: a baseline does no background work (with 100,000 offers
    // each tick's refresh cost a quarter of a core, which ours pays on its jobs' side).
    priceFeed: createPriceFeed({ ...config, PRICE_TICK_SECONDS: 86_400 }, log),
    config,
    log,
  });
  const ctx = { ...visitorContext(), visitorCountryIso: 'US' };
  const cached = new Map<string, { bucket: number; body: string }>();
  handler = async (res, req) => {
    const url = req.url ?? '/';
    const bucket = Math.floor(Date.now() / 10_000);
    let body = mode === 'offers-cached' ? cached.get(url) : undefined;
    if (body?.bucket !== bucket) {
      const query = new URL(url, 'http://bare').searchParams;
      const found = await services.offers.search(ctx, {
        type: 'buy',
        cryptoCurrencyId: 1,
        currency: 'USD',
        fiatMin: query.get('fiat-min') ?? undefined,
        locale: 'en',
      });
      body = { bucket, body: JSON.stringify({ data: found.offers, meta: found.meta }) };
      if (mode === 'offers-cached') cached.set(url, body);
    }
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': Buffer.byteLength(body.body),
    });
    res.end(body.body);
  };
} else {
  const db = new Database(path, { readonly: true });
  const query = db.prepare('SELECT * FROM fiat_currencies ORDER BY sort_order, code');
  handler = (res) => {
    const body = JSON.stringify({ data: query.all() });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
}

// The offers mode awaits the (asynchronous) repository; a failure is reported, never left unhandled.
const listener = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  void (async () => handler(res, req))().catch((error: unknown) => {
    console.error(error);
    res.destroy();
  });
};
// OBSERVED=on: the same answer through the product's request log and metrics (issue 25), the log
// at `info` written as production writes it (buffered, to a file descriptor: /dev/null here), so
// the difference from the plain run is what logging and metrics cost a request.
const server = createServer(process.env.OBSERVED === 'on' ? await observed(listener) : listener);
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));

async function observed(inner: typeof listener): Promise<typeof listener> {
  const { pino } = await import('pino');
  const { createLog, LOG_BUFFER_BYTES } = await import('../../server/observability/log.ts');
  const { createMetrics } = await import('../../server/observability/metrics.ts');
  const { noteRequest, observeRequests } = await import('../../server/observability/request-log.ts');
  const metrics = createMetrics();
  const destination = pino.destination({ dest: '/dev/null', minLength: LOG_BUFFER_BYTES, sync: false });
  const log = createLog({ level: 'info', format: 'json', destination });
  return observeRequests({ log, trustProxy: false, onFinished: metrics.observeRequest }, (req, res) => {
    noteRequest(req, { route: 'static' });
    inner(req, res);
  });
}
