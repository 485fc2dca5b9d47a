import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { ApiKeyScope } from '../../../src/lib/shared/api-keys.ts';

// SQL of API keys (issue 21), in the portable text both engines run (db/sql-client.ts).

export interface ApiKeyRow {
  id: number;
  publicId: string;
  userId: number;
  name: string;
  scope: ApiKeyScope;
  salt: string;
  secretHash: string;
  createdAt: number;
  lastUsedAt: number | null;
  lastUsedIp: string | null;
}

const COLUMNS = `id, public_id AS publicId, user_id AS userId, name, scope, salt, secret_hash AS secretHash,
  created_at AS createdAt, last_used_at AS lastUsedAt, last_used_ip AS lastUsedIp`;
const ACTIVE = `SELECT ${COLUMNS} FROM api_keys WHERE public_id = ? AND revoked_at IS NULL`;
const OF_USER = `SELECT ${COLUMNS} FROM api_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY id DESC`;
const COUNT = 'SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL';
const INSERT = `INSERT INTO api_keys (public_id, user_id, name, scope, salt, secret_hash, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;
const REVOKE = 'UPDATE api_keys SET revoked_at = ? WHERE public_id = ? AND user_id = ? AND revoked_at IS NULL';
const USED = 'UPDATE api_keys SET last_used_at = ?, last_used_ip = ? WHERE id = ?';

export function createApiKeysRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    db: database,
    active: (publicId: string) => sql.get<ApiKeyRow>(ACTIVE, [publicId]),
    ofUser: (userId: number) => sql.all<ApiKeyRow>(OF_USER, [userId]),
    count: async (userId: number) => Number((await sql.get<{ n: number }>(COUNT, [userId]))?.n ?? 0),
    insert: (row: Omit<ApiKeyRow, 'id' | 'lastUsedAt' | 'lastUsedIp'>) =>
      sql.run(INSERT, [row.publicId, row.userId, row.name, row.scope, row.salt, row.secretHash, row.createdAt]),
    /** False when the person has no such active key. */
    revoke: async (userId: number, publicId: string, at: number) =>
      (await sql.run(REVOKE, [at, publicId, userId])).changes === 1,
    markUsed: (id: number, at: number, ip: string) => sql.run(USED, [at, ip, id]),
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
