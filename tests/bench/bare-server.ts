// The baseline: a bare node:http server doing the least work that produces the same answer as
// ours. `static <file>` sends the file's bytes from memory; `api <db>` runs the same prepared
// query as GET /rest/v1/currencies and serializes it; `session <db>` hashes the session cookie
// and runs the session-and-user lookup of GET /rest/v1/users/me. Prints `ready <port>`.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';

const [mode, path] = process.argv.slice(2);
if (!path) throw new Error('usage: bare-server.ts static|api <path>');

let handler: (res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void;
if (mode === 'static') {
  const body = readFileSync(path);
  handler = (res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  };
} else if (mode === 'session') {
  // The same primary-key lookups GET /rest/v1/users/me makes (see profileOf in
  // server/services/accounts/repository.ts), so only the framework and the shaping differ.
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
  handler = (res, req) => {
    const token = /(?:^|; )session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const found = session.get(createHash('sha256').update(token).digest('hex'), Date.now()) as
      | { user_id: number }
      | undefined;
    const u =
      found && (user.get(found.user_id) as { id: number; country_id: number | null; currency_id: number | null });
    const row = u && {
      session: found,
      user: u,
      country: u.country_id === null ? null : country.get(u.country_id),
      currency: u.currency_id === null ? null : currency.get(u.currency_id),
      settings: settings.get(u.id),
      factor: factor.get(u.id),
      phone: phone.get(u.id),
    };
    const body = JSON.stringify({ data: row });
    res.writeHead(row ? 200 : 401, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
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

const server = createServer((req, res) => handler(res, req));
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
