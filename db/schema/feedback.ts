import { index, integer, table, text } from './dialect.ts';
import { users } from './users.ts';

// The feature-request form (spec sections 1 and 7, POST /rest/v1/feedback/feature-request): what a
// signed-in person asks the product to do, kept for the team to read. Trade feedback lives beside
// the trades (trade_feedback in trades.ts).

export const featureRequests = table(
  'feature_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Plain text as typed (trimmed), never rendered as HTML. */
    text: text('text').notNull(),
    /** The page's language when sent: tells the reader which language to answer in. */
    locale: text('locale').notNull(),
    /** Unix milliseconds. */
    createdAt: integer('created_at').notNull(),
  },
  // The per-person daily limit counts a person's recent requests.
  (t) => [index('feature_requests_user_idx').on(t.userId, t.createdAt)],
);
