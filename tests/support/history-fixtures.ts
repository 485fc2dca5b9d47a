// Finished trades and their feedback written straight into a database, for lists that need more
// rows than a test should trade through the API (paging past 50). The rows are shaped as the
// trades service writes them; the sellers' coins never moved, so no ledger test may read them.

export interface HistoryOptions {
  buyer: string;
  seller: string;
  count: number;
  /** Unix ms of the newest trade; each older one starts a minute earlier. */
  at: number;
  status?: 'released' | 'cancelled_buyer' | 'dispute_won_seller';
  /** Each trade's buyer rates the seller: positive for even rows, negative for odd ones (or all `rating`). */
  feedback?: 'alternate' | 'positive' | 'negative' | 'none';
  prefix?: string;
}

type Run = (statement: string, ...params: unknown[]) => unknown;

/**
 * Inserts `count` finished trades of `buyer` with `seller` (by username) and the buyer's feedback,
 * through `run`: a test's Database (either engine) or the e2e server's SQLite connection.
 */
export async function insertHistory(run: Run, options: HistoryOptions): Promise<void> {
  const { buyer, seller, count, at, status = 'released', feedback = 'alternate', prefix = 'history' } = options;
  // The instants are cast: PostgreSQL would take a bare parameter in `? - i * 60000` for an integer
  // (32 bits), too small for Unix milliseconds.
  await run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO trades (hash, offer_id, offer_type, owner_id, responder_id, buyer_id, seller_id, crypto_code,
       crypto_amount, fee_amount, fee_basis_points, escrow_ref, fiat_currency_id, fiat_amount_minor, price_minor,
       usd_amount_cents, payment_method_id, payment_window_minutes, offer_terms, payment_details, tags, status,
       started_at, expires_at, ended_at, version, updated_at)
     SELECT ? || i, o.id, 'sell', s.id, b.id, b.id, s.id, 'BTC', 100000 + i, 1000, 100, ? || i, o.fiat_currency_id,
       10000 + i * 100, 10000000, 10000, o.payment_method_id, 30, '', '', '[]', ?,
       CAST(? AS BIGINT) - i * 60000, CAST(? AS BIGINT) - i * 60000 + 1800000, CAST(? AS BIGINT) - i * 60000 + 600000, 2,
       CAST(? AS BIGINT) - i * 60000 + 600000
     FROM n, users b, users s, (SELECT id, fiat_currency_id, payment_method_id FROM offers ORDER BY id LIMIT 1) o
     WHERE b.username = ? AND s.username = ?`,
    count,
    prefix,
    prefix,
    status,
    at,
    at,
    at,
    at,
    buyer,
    seller,
  );
  if (feedback === 'none') return;
  const rating =
    feedback === 'alternate'
      ? "CASE WHEN (t.crypto_amount % 2) = 0 THEN 'positive' ELSE 'negative' END"
      : `'${feedback}'`;
  await run(
    `INSERT INTO trade_feedback (trade_id, from_id, to_id, type, rating, message, created_at, updated_at)
     SELECT t.id, t.buyer_id, t.seller_id, 'sell', ${rating}, 'Trade ' || substr(t.hash, length(?) + 1),
       t.ended_at, t.ended_at
     FROM trades t WHERE t.hash LIKE ? || '%'`,
    prefix,
    prefix,
  );
}
