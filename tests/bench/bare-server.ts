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
  const db = new Database(path, { readonly: true });
  const query = db.prepare(
    'SELECT s.*, u.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.expires_at > ?',
  );
  handler = (res, req) => {
    const token = /(?:^|; )session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const row = query.get(createHash('sha256').update(token).digest('hex'), Date.now());
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
