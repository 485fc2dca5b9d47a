import { asDatabase } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { operatorOf } from './access.ts';
import type { OperatorsDeps } from './deps.ts';
import { cryptoAmount } from './people.ts';

// Any trade by its hash, for moderators and administrators: its terms and parties, its whole
// audit trail (`trade_transitions`, append-only), the ledger transactions it posted (escrow lock,
// release or return with the fee, affiliate shares) and its chat with the moderators' own lines.

const TRADE = `SELECT t.id, t.hash, t.status, t.offer_type AS offerType, t.crypto_code AS cryptoCode,
    t.crypto_amount AS cryptoAmount, t.fee_amount AS feeAmount, t.fiat_amount_minor AS fiatAmountMinor,
    c.code AS fiatCode, t.escrow_ref AS escrowRef, m.name AS paymentMethod, g.slug AS paymentGroup,
    b.public_id AS buyerId, b.username AS buyerName, s.public_id AS sellerId, s.username AS sellerName,
    t.started_at AS startedAt, t.expires_at AS expiresAt, t.paid_at AS paidAt, t.ended_at AS endedAt,
    t.disputed_at AS disputedAt, t.dispute_reason_id AS disputeReasonId, t.dispute_text AS disputeText,
    r.username AS resolvedBy
  FROM trades t JOIN fiat_currencies c ON c.id = t.fiat_currency_id
  JOIN payment_methods m ON m.id = t.payment_method_id JOIN payment_groups g ON g.id = m.group_id
  JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id LEFT JOIN users r ON r.id = t.resolved_by
  WHERE t.hash = ?`;
const TRANSITIONS = `SELECT x.action, x.from_status AS fromStatus, x.to_status AS toStatus, x.actor_role AS actorRole,
    u.username AS actor, x.ledger_transaction_id AS ledgerTransactionId, x.note, x.at
  FROM trade_transitions x LEFT JOIN users u ON u.id = x.actor_id WHERE x.trade_id = ? ORDER BY x.id`;
const LEDGER = `SELECT t.public_id AS transactionId, t.kind, t.memo, t.created_at AS createdAt, a.kind AS account,
    u.public_id AS owner, p.currency, p.amount
  FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id
  JOIN ledger_accounts a ON a.id = p.account_id LEFT JOIN users u ON u.id = a.owner_id
  WHERE t.id IN (
    SELECT ep.transaction_id FROM ledger_postings ep JOIN ledger_accounts ea ON ea.id = ep.account_id
      WHERE ea.kind = 'trade_escrow' AND ea.reference = ?
    UNION SELECT st.id FROM ledger_transactions st JOIN affiliate_earnings ae ON ae.ledger_transaction_id = st.public_id
      WHERE ae.trade_id = ?)
  ORDER BY t.id, p.id`;
const CHAT = `SELECT m.author_role AS authorRole, u.username AS author, m.body, a.public_id AS attachment,
    m.is_for_moderator AS isForModerator, m.created_at AS createdAt
  FROM trade_messages m LEFT JOIN users u ON u.id = m.author_id LEFT JOIN trade_attachments a ON a.id = m.attachment_id
  WHERE m.trade_id = ? ORDER BY m.id`;

interface TradeRow {
  id: number;
  hash: string;
  status: string;
  offerType: 'buy' | 'sell';
  cryptoCode: LedgerCurrency;
  cryptoAmount: number;
  feeAmount: number;
  fiatAmountMinor: number;
  fiatCode: string;
  escrowRef: string;
  paymentMethod: string;
  paymentGroup: string;
  buyerId: string;
  buyerName: string;
  sellerId: string;
  sellerName: string;
  startedAt: number;
  expiresAt: number;
  paidAt: number | null;
  endedAt: number | null;
  disputedAt: number | null;
  disputeReasonId: string | null;
  disputeText: string | null;
  resolvedBy: string | null;
}

interface PostingRow {
  transactionId: string;
  kind: string;
  memo: string | null;
  createdAt: number;
  account: string;
  owner: string | null;
  currency: LedgerCurrency;
  amount: number;
}

/** Postings grouped by their transaction, in the order they were written. */
function transactionsOf(rows: PostingRow[]) {
  const byId = new Map<
    string,
    { transactionId: string; kind: string; memo: string | null; createdAt: number; postings: unknown[] }
  >();
  for (const row of rows) {
    let entry = byId.get(row.transactionId);
    if (!entry) {
      entry = {
        transactionId: row.transactionId,
        kind: row.kind,
        memo: row.memo,
        createdAt: row.createdAt,
        postings: [],
      };
      byId.set(row.transactionId, entry);
    }
    entry.postings.push({ account: row.account, owner: row.owner, ...cryptoAmount(row.amount, row.currency) });
  }
  return [...byId.values()];
}

const truthy = (value: unknown) => value === true || value === 1;

/** The trade `hash` names with its trail, ledger and chat; 404 on `id` when there is none. */
export async function lookUpTrade(deps: OperatorsDeps, ctx: PersonContext, { hash }: { hash: string }) {
  operatorOf(ctx, 'staff');
  const { sql } = asDatabase(deps.db);
  const t = await sql.get<TradeRow>(TRADE, [hash]);
  if (!t) throw new AppError('NOT_FOUND', 'No trade has this id.', { field: 'id', key: 'operators_trade_not_found' });
  const chat = await sql.all<Record<string, unknown>>(CHAT, [t.id]);
  return {
    trade: {
      hash: t.hash,
      status: t.status,
      offerType: t.offerType,
      crypto: cryptoAmount(t.cryptoAmount, t.cryptoCode),
      fee: cryptoAmount(t.feeAmount, t.cryptoCode),
      fiat: { minor: t.fiatAmountMinor, amount: fromMinorUnits(t.fiatAmountMinor, 2), currency: t.fiatCode },
      paymentMethod: t.paymentMethod,
      paymentGroup: t.paymentGroup,
      buyer: { publicId: t.buyerId, username: t.buyerName },
      seller: { publicId: t.sellerId, username: t.sellerName },
      startedAt: t.startedAt,
      expiresAt: t.expiresAt,
      paidAt: t.paidAt,
      endedAt: t.endedAt,
      dispute:
        t.disputedAt === null
          ? null
          : { at: t.disputedAt, reason: t.disputeReasonId, text: t.disputeText, resolvedBy: t.resolvedBy },
    },
    transitions: await sql.all(TRANSITIONS, [t.id]),
    ledger: transactionsOf(await sql.all<PostingRow>(LEDGER, [t.escrowRef, t.id])),
    chat: chat.map((line) => ({ ...line, isForModerator: truthy(line.isForModerator) })),
  };
}
