import { asDatabase } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import { operatorOf } from './access.ts';
import type { OperatorsDeps } from './deps.ts';
import { cryptoAmount } from './people.ts';

// The platform's fee income per UTC day, currency and payment-method group over a date range:
// the data behind the console's chart. Read from the ledger's `fee_income` postings, net: a
// trade's fee (its release), less the affiliates' shares of it, plus kiosk sales' fees. A posting
// belongs to the group of the trade its transaction moved (through the trade's escrow, or the
// affiliate earnings it paid); kiosk sales have no trade and are the group `kiosk`.

const DAY_MS = 86_400_000;
export const FEE_RANGE_MAX_DAYS = 366;

const GROUP_OF_ESCROW = `SELECT g.slug FROM ledger_postings ep JOIN ledger_accounts ea ON ea.id = ep.account_id
    JOIN trades tr ON tr.escrow_ref = ea.reference JOIN payment_methods m ON m.id = tr.payment_method_id
    JOIN payment_groups g ON g.id = m.group_id
  WHERE ep.transaction_id = t.id AND ea.kind = 'trade_escrow' ORDER BY ep.id LIMIT 1`;
const GROUP_OF_SHARE = `SELECT g.slug FROM affiliate_earnings ae JOIN trades tr ON tr.id = ae.trade_id
    JOIN payment_methods m ON m.id = tr.payment_method_id JOIN payment_groups g ON g.id = m.group_id
  WHERE ae.ledger_transaction_id = t.public_id ORDER BY ae.id LIMIT 1`;
const FEES = `SELECT f.day, f.currency, f.group_slug AS groupSlug, sum(f.amount) AS amount FROM (
    SELECT t.created_at / ${DAY_MS} AS day, p.currency AS currency, p.amount AS amount,
      coalesce((${GROUP_OF_ESCROW}), (${GROUP_OF_SHARE}),
        CASE WHEN t.kind = 'kiosk_sale' THEN 'kiosk' ELSE 'other' END) AS group_slug
    FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
    JOIN ledger_transactions t ON t.id = p.transaction_id
    WHERE a.kind = 'fee_income' AND t.created_at >= ? AND t.created_at < ?) f
  GROUP BY f.day, f.currency, f.group_slug ORDER BY f.day, f.currency, f.group_slug`;
const GROUP_NAMES = 'SELECT slug, name FROM payment_groups ORDER BY id';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date's UTC midnight, or undefined when the text is no real date. */
function dayStart(text: string): number | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().slice(0, 10) === text ? at : undefined;
}

const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The range, both ends included; by default the 30 days that end today. */
function rangeOf(now: number, from: string | undefined, to: string | undefined): { start: number; end: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const end = to === undefined ? today : dayStart(to);
  const start = from === undefined ? (end ?? today) - 29 * DAY_MS : dayStart(from);
  const issues = [];
  if (start === undefined) issues.push({ field: 'from', message: 'A date as YYYY-MM-DD.' });
  if (end === undefined) issues.push({ field: 'to', message: 'A date as YYYY-MM-DD.' });
  if (start !== undefined && end !== undefined) {
    if (end < start) issues.push({ field: 'to', message: 'The range ends on or after its first day.' });
    else if ((end - start) / DAY_MS + 1 > FEE_RANGE_MAX_DAYS)
      issues.push({ field: 'from', message: `At most ${FEE_RANGE_MAX_DAYS} days at a time.` });
  }
  if (issues.length > 0 || start === undefined || end === undefined) throw invalidInput(issues);
  return { start, end };
}

export async function feeIncome(
  deps: OperatorsDeps,
  ctx: PersonContext,
  { from, to }: { from?: string | undefined; to?: string | undefined },
) {
  operatorOf(ctx, 'admin');
  const { start, end } = rangeOf(deps.now(), from, to);
  const { sql } = asDatabase(deps.db);
  const rows = await sql.all<{ day: number; currency: LedgerCurrency; groupSlug: string; amount: number }>(FEES, [
    start,
    end + DAY_MS,
  ]);
  const totals: Record<LedgerCurrency, number> = { BTC: 0, USDT: 0 };
  const days = rows.map((row) => {
    const amount = Number(row.amount);
    totals[row.currency] += amount;
    return { date: dateOf(Number(row.day) * DAY_MS), group: row.groupSlug, ...cryptoAmount(amount, row.currency) };
  });
  const names = await sql.all<{ slug: string; name: string }>(GROUP_NAMES);
  return {
    from: dateOf(start),
    to: dateOf(end),
    days,
    totals: (['BTC', 'USDT'] as const).map((currency) => cryptoAmount(totals[currency], currency)),
    groups: [...names, { slug: 'kiosk', name: 'Kiosk sales' }, { slug: 'other', name: 'Other' }],
  };
}
