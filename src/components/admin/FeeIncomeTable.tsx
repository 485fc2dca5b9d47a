import { ADMIN_TEXT } from './admin-text.ts';
import { type FeeIncomeView, groupName } from './use-fee-income.ts';

// The fee income as a table, rendered on the server (no script): a row per UTC day, currency and
// payment-method group with the exact amount the API writes, newest day first, and the range's
// total per currency in the footer.

const TEXT = ADMIN_TEXT.fees;

export default function FeeIncomeTable({ income }: { income: FeeIncomeView }) {
  if (income.days.length === 0) {
    return (
      <p className="card admin-money-empty" data-empty>
        {TEXT.empty}
      </p>
    );
  }
  const rows = [...income.days].reverse();
  return (
    <table className="admin-money-table admin-money-cards" data-fee-table>
      <caption className="visually-hidden">{TEXT.table}</caption>
      <thead>
        <tr>
          <th scope="col">{TEXT.date}</th>
          <th scope="col">{TEXT.currency}</th>
          <th scope="col">{TEXT.group}</th>
          <th scope="col" className="admin-money-num">
            {TEXT.amount}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={`${row.date}-${row.currency}-${row.group}`}
            data-fee-row={`${row.date} ${row.currency} ${row.group}`}
          >
            <td data-label={TEXT.date}>{row.date}</td>
            <td data-label={TEXT.currency}>{row.currency}</td>
            <td data-label={TEXT.group}>
              <bdi>{groupName(income, row.group)}</bdi>
            </td>
            <td data-label={TEXT.amount} className="admin-money-num" data-amount>
              {row.amount}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {income.totals
          .filter((total) => total.minor !== 0)
          .map((total) => (
            <tr key={total.currency} data-fee-total={total.currency}>
              <th scope="row" colSpan={3} data-label={TEXT.totals}>
                {TEXT.totals} · {total.currency}
              </th>
              <td data-label={TEXT.amount} className="admin-money-num" data-amount>
                {total.amount}
              </td>
            </tr>
          ))}
      </tfoot>
    </table>
  );
}
