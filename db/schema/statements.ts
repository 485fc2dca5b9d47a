import { sql } from 'drizzle-orm';
import { check, integer, table, text } from './dialect.ts';

// Signed account statements (issue 24; docs/decisions/147-signed-statements.md). Balances and
// movements come from the ledger, which is append-only: a statement is computed, never stored.
// What is stored is the platform's signing key, when the configuration names none, and which
// months the monthly job has closed.

/**
 * Keys the platform generated for itself, one per purpose (`statements`): made once by the first
 * process that needed one, so every process of the deployment and every restart signs with the
 * same key. Never written when the configuration gives the key (STATEMENT_KEY, STATEMENT_KEY_FILE).
 */
export const signingKeys = table('signing_keys', {
  purpose: text('purpose').primaryKey(),
  /** PKCS#8 PEM of the Ed25519 private key. */
  privateKeyPem: text('private_key_pem').notNull(),
  /** Unix ms. */
  createdAt: integer('created_at').notNull(),
});

/**
 * Months whose statements are ready: written once by the monthly job (the jobs' leader) after the
 * month ended; `notified_through` is the last user id told so far, so a job that stops half way
 * (a new leader, a restart) continues where it was and tells nobody twice.
 */
export const statementMonths = table(
  'statement_months',
  {
    /** `YYYY-MM`, UTC. */
    period: text('period').primaryKey(),
    /** Unix ms the job closed the month. */
    readyAt: integer('ready_at').notNull(),
    notifiedThrough: integer('notified_through').notNull().default(0),
    /** Unix ms the last person was told; null while the job is still telling. */
    notifiedAt: integer('notified_at'),
  },
  (t) => [check('statement_months_period_check', sql`length(${t.period}) = 7`)],
);
