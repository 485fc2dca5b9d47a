// The baseline: a bare node:http server doing the least work that produces the same answer as
// ours. `static <file>` sends the file's bytes from memory; `api <db>` runs the same prepared
// query as GET /rest/v1/currencies and serializes it; `session <db>` hashes the session cookie,
// makes the lookups of GET /rest/v1/users/me (the BTC wallet's balance and incoming included) and answers the same JSON with the same headers.
// `offers <db>` runs the offer search's own prepared statements (the repository of
// server/services/offers) for `type=buy&currency=USD&fiat-min=100` and sends the rows as JSON.
// Prints `ready <port>`.
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';

const [mode, path] = process.argv.slice(2);
if (!path) throw new Error('usage: bare-server.ts static|api <path>');

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
  // What GET /rest/v1/users/me does, written by hand: the same primary-key lookups (profileOf in
  // server/services/accounts/repository.ts) in one read transaction as ours, the same answer
  // shaped from the rows (byte for byte what toCurrentUser gives the bench's signed-in buyer, whose
  // request names no locale) and the same headers, so only the framework's cost differs.
  const db = new Database(path, { readonly: true });
  const session = db.prepare('SELECT * FROM sessions WHERE id = ? AND expires_at > ?');
  const user = db.prepare('SELECT * FROM users WHERE id = ?');
  const country = db.prepare('SELECT iso, name FROM countries WHERE id = ?');
  const currency = db.prepare('SELECT code FROM fiat_currencies WHERE id = ?');
  const settings = db.prepare('SELECT sound_notifications, avatar_url FROM user_settings WHERE user_id = ?');
  const factor = db.prepare(
    'SELECT confirmed_at, for_login, for_sendout, for_release FROM two_factor WHERE user_id = ?',
  );
  const phone = db.prepare('SELECT number, verified_at FROM phones WHERE user_id = ?');
  const btcBalance = db
    .prepare("SELECT balance FROM ledger_accounts WHERE kind = 'user_wallet' AND owner_id = ? AND currency = 'BTC'")
    .pluck();
  const btcIncoming = db
    .prepare(
      "SELECT coalesce(sum(amount), 0) FROM chain_transactions WHERE user_id = ? AND status = 'incoming' AND currency = 'BTC'",
    )
    .pluck();
  /** Satoshi as the 8-decimal text of toCurrentUser. */
  const btc = (sat: number) => `${Math.floor(sat / 1e8)}.${String(sat % 1e8).padStart(8, '0')}`;
  type Row = Record<string, unknown>;
  const read = db.transaction((id: string) => {
    const found = session.get(id, Date.now()) as Row | undefined;
    const u = found && (user.get(found.user_id) as Row | undefined);
    if (!u) return undefined;
    return {
      u,
      country: u.country_id === null ? undefined : (country.get(u.country_id) as Row | undefined),
      currency: u.currency_id === null ? undefined : (currency.get(u.currency_id) as Row | undefined),
      settings: settings.get(u.id) as Row | undefined,
      factor: factor.get(u.id) as Row | undefined,
      phone: phone.get(u.id) as Row | undefined,
      balance: (btcBalance.get(u.id) as number | undefined) ?? 0,
      incoming: (btcIncoming.get(u.id) as number | undefined) ?? 0,
    };
  });
  const zero = '0.00000000';
  handler = (res, req) => {
    const token = /(?:^|; )session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const row = read(hash('sha256', token));
    let body: string;
    if (row) {
      const { u, country: place, currency: money, settings: prefs, factor: f, phone: p, balance, incoming } = row;
      const code = (money?.code as string | undefined) ?? 'USD';
      const on = f != null && f.confirmed_at !== null;
      const phoneVerified = p != null && p.verified_at !== null && p.number !== '';
      body = JSON.stringify({
        data: {
          isLogged: true,
          id: u.public_id,
          username: u.username,
          email: u.email,
          avatarUrl: prefs?.avatar_url ?? null,
          userFullName: null,
          country: place ? { iso: place.iso, name: place.name, popularPaymentMethods: [] } : null,
          visitorCountryISO: place?.iso ?? null,
          locationCurrency: code,
          currency: code,
          locale: u.locale,
          urlLocale: '',
          isUsernameChanged: u.is_username_changed === 1,
          isIdVerified: u.id_verified_at !== null,
          isIdVerificationPending: false,
          isDocumentVerified: false,
          isPhoneVerified: phoneVerified,
          phone: phoneVerified ? p?.number : null,
          isEmailVerified: u.is_email_verified === 1,
          isAddressVerified: false,
          isAddressVerificationPending: false,
          isVendor: u.is_vendor === 1,
          isModerator: u.role === 'moderator' || u.role === 'admin',
          isBanned: u.status === 'banned',
          isSuspended: u.status === 'suspended',
          isKiosk: u.is_kiosk === 1,
          isMerchant: u.is_merchant === 1,
          isAffiliate: u.is_affiliate === 1,
          isAffiliatePayForSellSide: false,
          isSoundEnabled: prefs ? prefs.sound_notifications === 1 : true,
          completedTrades: u.completed_trades,
          activeOffersCount: 0,
          totalTradedBtc: zero,
          affiliateBalance: zero,
          kioskBalance: zero,
          merchantBalance: zero,
          balance: btc(balance),
          twoFactor: {
            login: on && f?.for_login === 1,
            sendout: on && f?.for_sendout === 1,
            release: on && f?.for_release === 1,
          },
          wallet: {
            incomingAmount: btc(incoming),
            bond: zero,
            isAllowedSendout: u.is_email_verified === 1 && u.status === 'active',
            isKYCRequired: false,
          },
          referralCode: u.referral_code,
          kycLevelCheck: { level: u.is_email_verified === 1 ? 1 : 0, unusedTradingVolumeInFiatCurrency: 0 },
          showKYCVerificationBanner: false,
          isCurrentUserEligibleForBanks: false,
        },
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
} else if (mode === 'offers') {
  const { openDatabase } = await import('../../db/client.ts');
  const { createOffersRepository } = await import('../../server/services/offers/repository.ts');
  const repo = createOffersRepository(openDatabase(path));
  const usd = (await repo.db.sql.get<{ id: number }>(`SELECT id FROM fiat_currencies WHERE code = 'USD'`))
    ?.id as number;
  handler = async (res) => {
    const now = Date.now();
    const found = await repo.search(
      { offerType: 'sell', cryptoCurrencyId: 1, fiatCurrencyId: usd, amount: 100 },
      {
        onlineSince: now - 3 * 86_400_000,
        activeSince: now - 7_200_000,
        cryptoUsd: 92_000,
        cheapestFirst: true,
        limit: 50,
        offset: 0,
      },
    );
    const body = JSON.stringify({
      data: found.rows,
      meta: { featuredOffersCount: found.featured, otherOffersCount: found.total - found.featured },
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
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
const server = createServer((req, res) => {
  void (async () => handler(res, req))().catch((error: unknown) => {
    console.error(error);
    res.destroy();
  });
});
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
