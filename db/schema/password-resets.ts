import { index, integer, table, text } from './dialect.ts';
import { users } from './users.ts';

// "Forgot password": single-use links mailed to the account's address, and the per-address
// request log that limits how many an address may ask for (docs/decisions/028-password-change-and-reset.md, "Password change
// and reset").

/**
 * One row per reset link. The id is the SHA-256 of the 256-bit token in the link; the token itself
 * is never stored. A newer request expires the older unused rows rather than deleting them, so the
 * rows of the last hour also count the account's requests for its limit.
 */
export const passwordResets = table(
  'password_resets',
  {
    /** SHA-256 hex of the token in the link. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Unix milliseconds. */
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('password_resets_user_created_idx').on(t.userId, t.createdAt),
    index('password_resets_created_idx').on(t.createdAt),
  ],
);

/**
 * Every accepted forgot-password request by client address, known account or not, so the
 * per-address limit cannot tell which addresses have accounts. Rows older than the window go.
 */
export const passwordResetRequests = table(
  'password_reset_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ip: text('ip').notNull(),
    /** Unix milliseconds. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('password_reset_requests_ip_created_idx').on(t.ip, t.createdAt),
    index('password_reset_requests_created_idx').on(t.createdAt),
  ],
);
