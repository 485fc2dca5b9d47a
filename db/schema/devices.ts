import { index, integer, table, text, uniqueIndex } from './dialect.ts';
import { users } from './users.ts';

// Device review for new sign-ins (spec sections 1, 3 and 7, "castle/review-device").

/**
 * The browsers a user has signed in from. A device is its fingerprint: the SHA-256 of the user
 * agent and the client's network (/24 IPv4, /48 IPv6), so an address change inside one network
 * does not read as a new device. The first device of an account is confirmed without asking;
 * a later new one is `pending` until its owner confirms or reports it from the e-mailed link.
 */
export const devices = table(
  'devices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 hex of user agent + network (server/services/devices/fingerprint.ts). */
    fingerprint: text('fingerprint').notNull(),
    /** SHA-256 hex of the review token in the e-mail; the token itself is never stored. Null: no review. */
    reviewTokenHash: text('review_token_hash'),
    status: text('status', { enum: ['pending', 'confirmed', 'reported'] }).notNull(),
    /** Parsed from the user agent; null when not recognised. */
    browser: text('browser'),
    version: text('version'),
    os: text('os'),
    ip: text('ip').notNull(),
    /**
     * From the offline DB-IP City Lite database (server/services/devices/geolocation.ts), written
     * just after the sign-in's commit; `country` is the ISO 3166-1 alpha-2 code (`US`). Null for
     * private and reserved addresses, addresses the database does not place, `GEOIP=off`, and
     * rows older than the lookup.
     */
    city: text('city'),
    country: text('country'),
    /** Unix milliseconds. */
    createdAt: integer('created_at').notNull(),
    reviewedAt: integer('reviewed_at'),
  },
  (t) => [
    index('devices_user_fingerprint_idx').on(t.userId, t.fingerprint),
    uniqueIndex('devices_review_token_idx').on(t.reviewTokenHash),
  ],
);
