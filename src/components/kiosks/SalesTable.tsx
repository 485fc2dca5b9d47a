import { formatPercent } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { KioskSaleView } from '../../lib/shared/views/kiosks.ts';
import { formatCash } from './format.ts';
import type { T } from './types.ts';
import { SaleTime } from './ui.tsx';

// The kiosk's latest sales, newest first (the API's 20): a table on wide screens, each sale a
// small card on phones, its cells labelled from data-label (CSS only).

export function SalesTable({ t, lang, sales }: { t: T; lang: string; sales: KioskSaleView[] }) {
  const columns = {
    time: t('kiosk.sales.time'),
    customer: t('kiosk.sales.customer'),
    amount: t('kiosk.sales.amount'),
    cash: t('kiosk.sales.cash'),
    margin: t('kiosk.sales.margin'),
    fee: t('kiosk.sales.fee'),
    id: t('kiosk.sales.id'),
  };
  return (
    <section className="card kiosk-card kiosk-sales" aria-labelledby="kiosk-sales-title" data-testid="kiosk-sales">
      <h2 className="h3" id="kiosk-sales-title">
        {t('kiosk.sales.title')}
      </h2>
      {sales.length === 0 ? (
        <p className="muted kiosk-empty" data-testid="kiosk-sales-empty">
          {t('kiosk.sales.empty')}
        </p>
      ) : (
        <table className="kiosk-table">
          <thead>
            <tr>
              <th scope="col">{columns.time}</th>
              <th scope="col">{columns.customer}</th>
              <th scope="col" className="kiosk-num">
                {columns.amount}
              </th>
              <th scope="col" className="kiosk-num">
                {columns.cash}
              </th>
              <th scope="col" className="kiosk-num">
                {columns.margin}
              </th>
              <th scope="col" className="kiosk-num">
                {columns.fee}
              </th>
              <th scope="col">{columns.id}</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((sale) => (
              <tr key={sale.id} data-testid="kiosk-sale-row" data-sale={sale.id}>
                <td data-label={columns.time}>
                  <SaleTime at={sale.createdAt} lang={lang} />
                </td>
                <td data-label={columns.customer} className="kiosk-customer">
                  {sale.customer}
                </td>
                <td data-label={columns.amount} className="kiosk-num">
                  {formatCryptoAmount(sale.amount, sale.currency, lang)}
                </td>
                <td data-label={columns.cash} className="kiosk-num">
                  {formatCash(sale.fiatAmount, sale.fiatCurrency, lang)}
                </td>
                <td data-label={columns.margin} className="kiosk-num">
                  {formatPercent(Number(sale.marginPercent), lang)}
                </td>
                <td data-label={columns.fee} className="kiosk-num">
                  {formatCryptoAmount(sale.fee, sale.currency, lang)}
                </td>
                <td data-label={columns.id}>
                  <span className="kiosk-id">{sale.id}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
