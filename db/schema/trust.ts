import { index, integer, primaryKey, table, text } from './dialect.ts';
import { users } from './users.ts';

// What one person thinks of another: trusted (offers for trusted users only admit them) or
// blocked (neither sees the other's offers, spec section 5: "the opponent is blocked").

export const userTrust = table(
  'user_trust',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    otherId: integer('other_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['trusted', 'blocked'] }).notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.otherId] }), index('user_trust_other_idx').on(t.otherId)],
);
