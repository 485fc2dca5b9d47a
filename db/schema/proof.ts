import { sql } from 'drizzle-orm';
import { check, index, integer, table, text, uniqueIndex } from './dialect.ts';
import { LEDGER_CURRENCIES } from './ledger.ts';
import { users } from './users.ts';

// Proof of liabilities (issue 24; docs/decisions/146-proof-of-liabilities.md). A publication is
// one snapshot of the ledger: per currency, the root of a Merkle-sum tree over every person's
// liabilities, kept forever as the public history. The leaves (who, where, how much, the secret
// nonce) are private: they let a person be handed their inclusion proof later, and are kept for
// the latest publications only (server/services/proof/publish.ts).

export const proofPublications = table('proof_publications', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** `pol_…` */
  publicId: text('public_id').notNull().unique(),
  /** Unix ms of the snapshot. */
  publishedAt: integer('published_at').notNull(),
  /** The last ledger transaction (row id) the snapshot saw: its high-water mark. */
  ledgerHighWater: integer('ledger_high_water').notNull(),
  /** `schedule` (the daily job) or `operator` (npm run admin -- proof:publish). */
  source: text('source', { enum: ['schedule', 'operator'] }).notNull(),
});

export const proofRoots = table(
  'proof_roots',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    publicationId: integer('publication_id')
      .notNull()
      .references(() => proofPublications.id),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** SHA-256 of the root node, hex. */
    rootHash: text('root_hash').notNull(),
    /** Minor units: the sum of every leaf. */
    total: integer('total').notNull(),
    /** People in the tree, and the padded size (a power of two). */
    leafCount: integer('leaf_count').notNull(),
    treeSize: integer('tree_size').notNull(),
  },
  (t) => [
    uniqueIndex('proof_roots_publication_uq').on(t.publicationId, t.currency),
    check('proof_roots_total_check', sql`${t.total} >= 0 AND ${t.leafCount} >= 0 AND ${t.treeSize} >= 1`),
  ],
);

export const proofLeaves = table(
  'proof_leaves',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    publicationId: integer('publication_id')
      .notNull()
      .references(() => proofPublications.id),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** Where the leaf sits, 0-based; the order is shuffled at every publication. */
    position: integer('position').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Minor units: wallet, escrows as seller, affiliate earnings, merchant and kiosk balances. */
    balance: integer('balance').notNull(),
    /** 32 random bytes, hex: hides the balance and the person in the published hashes. */
    nonce: text('nonce').notNull(),
  },
  (t) => [
    uniqueIndex('proof_leaves_position_uq').on(t.publicationId, t.currency, t.position),
    index('proof_leaves_user_idx').on(t.userId, t.publicationId),
    check('proof_leaves_balance_check', sql`${t.balance} >= 0`),
  ],
);
