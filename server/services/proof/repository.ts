import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { LEDGER_CURRENCIES, type LedgerCurrency, OWNED_ACCOUNT_KINDS } from '../../../db/schema/index.ts';

// What the proof of liabilities reads from the ledger and keeps of its publications
// (db/schema/proof.ts). Portable SQL for both engines.

/** The kinds of account whose balance the platform owes a person: theirs, and escrows they locked as seller. */
export const LIABILITY_KINDS = [...OWNED_ACCOUNT_KINDS, 'trade_escrow'] as const;
const KINDS = LIABILITY_KINDS.map((kind) => `'${kind}'`).join(', ');

export interface PersonBalance {
  userId: number;
  publicId: string;
  currency: LedgerCurrency;
  balance: number;
}

export interface LedgerSnapshot {
  /** The last ledger transaction the snapshot saw (row id; 0 for an empty ledger). */
  highWater: number;
  balances: PersonBalance[];
  /** Per currency, the sum of the people's accounts and of the platform's own (which double entry makes opposite). */
  owed: Record<LedgerCurrency, number>;
  platform: Record<LedgerCurrency, number>;
}

export interface RootRow {
  publicationId: number;
  currency: LedgerCurrency;
  rootHash: string;
  total: number;
  leafCount: number;
  treeSize: number;
}

export interface PublicationRow {
  id: number;
  publicId: string;
  publishedAt: number;
  ledgerHighWater: number;
  source: 'schedule' | 'operator';
}

export interface LeafRow {
  position: number;
  userId: number;
  publicId: string;
  balance: number;
  nonce: string;
}

const BALANCES = `SELECT a.owner_id AS userId, u.public_id AS publicId, a.currency AS currency, sum(a.balance) AS balance
  FROM ledger_accounts a JOIN users u ON u.id = a.owner_id
  WHERE a.kind IN (${KINDS})
  GROUP BY a.owner_id, u.public_id, a.currency
  ORDER BY a.owner_id, a.currency`;
const SIDES = `SELECT currency, CASE WHEN kind IN (${KINDS}) THEN 1 ELSE 0 END AS owed, sum(balance) AS total
  FROM ledger_accounts GROUP BY currency, CASE WHEN kind IN (${KINDS}) THEN 1 ELSE 0 END`;
const PUBLICATION_COLUMNS = `id, public_id AS publicId, published_at AS publishedAt, ledger_high_water AS ledgerHighWater, source`;
const ROOT_COLUMNS = `publication_id AS publicationId, currency, root_hash AS rootHash, total, leaf_count AS leafCount,
  tree_size AS treeSize`;
/** Rows per INSERT: 6 parameters each stays far below both engines' limits. */
const BATCH = 500;

const zero = (): Record<LedgerCurrency, number> => ({ BTC: 0, USDT: 0 });

type Sql = Database['sql'];

/** Every person's liabilities and both sides' sums, in one transaction: one consistent snapshot. */
function snapshotOf(sql: Sql): Promise<LedgerSnapshot> {
  return sql.transaction(async () => {
    const high = await sql.get<{ highWater: number }>(
      'SELECT coalesce(max(id), 0) AS highWater FROM ledger_transactions',
    );
    const balances = await sql.all<PersonBalance>(BALANCES);
    const owed = zero();
    const platform = zero();
    for (const row of await sql.all<{ currency: LedgerCurrency; owed: number; total: number }>(SIDES)) {
      if (!LEDGER_CURRENCIES.includes(row.currency)) continue;
      (Number(row.owed) === 1 ? owed : platform)[row.currency] = Number(row.total);
    }
    return {
      highWater: Number(high?.highWater ?? 0),
      balances: balances.map((row) => ({ ...row, balance: Number(row.balance) })),
      owed,
      platform,
    };
  });
}

/** The publication, its roots and its leaves, in one transaction; answers the publication's row id. */
function insertPublication(
  sql: Sql,
  publication: Omit<PublicationRow, 'id'>,
  roots: Omit<RootRow, 'publicationId'>[],
  leaves: { currency: LedgerCurrency; rows: Omit<LeafRow, 'publicId'>[] }[],
): Promise<number> {
  return sql.transaction(async () => {
    const row = await sql.get<{ id: number }>(
      `INSERT INTO proof_publications (public_id, published_at, ledger_high_water, source)
       VALUES (?, ?, ?, ?) RETURNING id`,
      [publication.publicId, publication.publishedAt, publication.ledgerHighWater, publication.source],
    );
    const id = Number(row?.id);
    for (const root of roots)
      await sql.run(
        `INSERT INTO proof_roots (publication_id, currency, root_hash, total, leaf_count, tree_size)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [id, root.currency, root.rootHash, root.total, root.leafCount, root.treeSize],
      );
    for (const { currency, rows } of leaves)
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH);
        await sql.run(
          `INSERT INTO proof_leaves (publication_id, currency, position, user_id, balance, nonce)
           VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
          batch.flatMap((leaf) => [id, currency, leaf.position, leaf.userId, leaf.balance, leaf.nonce]),
        );
      }
    return id;
  });
}

export function createProofRepository(db: DatabaseLike) {
  const { sql } = asDatabase(db);
  return {
    snapshot: () => snapshotOf(sql),
    insert: (...args: Parameters<typeof insertPublication> extends [Sql, ...infer R] ? R : never) =>
      insertPublication(sql, ...args),

    /** Removes the private leaves of every publication but the latest `keep`; their roots stay. */
    async pruneLeaves(keep: number): Promise<void> {
      await sql.run(
        `DELETE FROM proof_leaves WHERE publication_id NOT IN (
           SELECT id FROM (SELECT id FROM proof_publications ORDER BY id DESC LIMIT ?) kept)`,
        [keep],
      );
    },

    latest: () =>
      sql.get<PublicationRow>(`SELECT ${PUBLICATION_COLUMNS} FROM proof_publications ORDER BY id DESC LIMIT 1`),

    /** The newest publications first, `limit` of them from before row id `before` (all when undefined). */
    list: (limit: number, before?: number) =>
      sql.all<PublicationRow>(
        `SELECT ${PUBLICATION_COLUMNS} FROM proof_publications WHERE id < ? ORDER BY id DESC LIMIT ?`,
        [before ?? Number.MAX_SAFE_INTEGER, limit],
      ),

    byPublicId: (publicId: string) =>
      sql.get<PublicationRow>(`SELECT ${PUBLICATION_COLUMNS} FROM proof_publications WHERE public_id = ?`, [publicId]),

    rootsOf: (publicationIds: number[]) =>
      publicationIds.length === 0
        ? Promise.resolve([] as RootRow[])
        : sql.all<RootRow>(
            `SELECT ${ROOT_COLUMNS} FROM proof_roots WHERE publication_id IN (${publicationIds.map(() => '?').join(', ')})
             ORDER BY publication_id DESC, currency`,
            publicationIds,
          ),

    /** One tree's leaves in order, with their people's public ids: enough to build it again. */
    leavesOf: (publicationId: number, currency: LedgerCurrency) =>
      sql.all<LeafRow>(
        `SELECT l.position, l.user_id AS userId, u.public_id AS publicId, l.balance, l.nonce
         FROM proof_leaves l JOIN users u ON u.id = l.user_id
         WHERE l.publication_id = ? AND l.currency = ? ORDER BY l.position`,
        [publicationId, currency],
      ),

    /** A person's leaves in a publication: none, one or one per currency. */
    leavesOfUser: (publicationId: number, userId: number) =>
      sql.all<{ currency: LedgerCurrency; position: number; balance: number; nonce: string }>(
        `SELECT currency, position, balance, nonce FROM proof_leaves WHERE publication_id = ? AND user_id = ?
         ORDER BY currency`,
        [publicationId, userId],
      ),
  };
}

export type ProofRepository = ReturnType<typeof createProofRepository>;
