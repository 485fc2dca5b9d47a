import { sql } from 'drizzle-orm';
import { API_KEY_SCOPES } from '../../src/lib/shared/api-keys.ts';
import { check, index, inList, integer, table, text } from './dialect.ts';
import { users } from './users.ts';

// API keys for bots (issue 21, docs/api.md; server/services/api-keys/). No secret is stored: the
// secret a person was shown once is derived from API_KEY_ROOT, the key's id and its salt, and only
// its SHA-256 is kept, so the database alone cannot sign a request.

export const apiKeys = table(
  'api_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `ck_…`: the X-Api-Key header; shown in settings. */
    publicId: text('public_id').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    /** Random, per key: an input of the secret's derivation. */
    salt: text('salt').notNull(),
    /** SHA-256 (hex) of the secret: a changed API_KEY_ROOT turns every key off instead of into another. */
    secretHash: text('secret_hash').notNull(),
    /** Unix ms. */
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    /** Set when revoked: the key stops at once and is no longer listed. */
    revokedAt: integer('revoked_at'),
  },
  (t) => [
    index('api_keys_user_idx').on(t.userId),
    check('api_keys_scope_check', inList('scope', API_KEY_SCOPES)),
    check('api_keys_name_check', sql`length(${t.name}) BETWEEN 1 AND 60`),
  ],
);
