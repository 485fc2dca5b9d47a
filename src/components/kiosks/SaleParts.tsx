import { formatPercent } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { KioskQuote, KioskSaleTerms, KioskSaleView } from '../../lib/shared/views/kiosks.ts';
import { formatCash, totalOf } from './format.ts';
import type { T } from './types.ts';
import { SaleTime } from './ui.tsx';

// The quote the operator reads to the customer before confirming, and the receipt of the sale.

/** One line of a quote or receipt: its name and its value. */
function Line({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <div className="kiosk-line" data-line={name}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The price of one coin the sale was made at, in the cash currency. */
const priceLine = (t: T, lang: string, quote: KioskQuote) =>
  t('kiosk.quote.priceValue', {
    price: formatCash(quote.price, quote.fiatCurrency, lang),
    currency: quote.currency,
  });

/** The lines both the quote and the receipt show: cash, price with its margin, fee and total. */
function TermLines({ t, lang, terms, quote }: { t: T; lang: string; terms: KioskSaleTerms; quote: KioskQuote }) {
  return (
    <>
      <Line name="cash" label={t('kiosk.quote.cash')} value={formatCash(terms.fiatAmount, terms.fiatCurrency, lang)} />
      <Line name="price" label={t('kiosk.quote.price')} value={priceLine(t, lang, quote)} />
      <Line
        name="market"
        label={t('kiosk.quote.market')}
        value={t('kiosk.quote.marketValue', {
          price: formatCash(quote.marketPrice, quote.fiatCurrency, lang),
          margin: formatPercent(Number(terms.marginPercent), lang),
        })}
      />
      <Line name="fee" label={t('kiosk.quote.fee')} value={formatCryptoAmount(terms.fee, terms.currency, lang)} />
      <Line
        name="total"
        label={t('kiosk.quote.total')}
        value={formatCryptoAmount(totalOf(terms.amount, terms.fee, terms.currency), terms.currency, lang)}
      />
    </>
  );
}

export function QuoteCard({
  t,
  lang,
  quote,
  moved,
  busy,
  summary,
  onConfirm,
  onEdit,
}: {
  t: T;
  lang: string;
  quote: KioskQuote;
  moved: string | null;
  busy: boolean;
  summary: string | null;
  onConfirm(): void;
  onEdit(): void;
}) {
  return (
    <div className="kiosk-step" data-testid="kiosk-quote">
      <h3 className="kiosk-step-title" id="kiosk-quote-title" tabIndex={-1}>
        {t('kiosk.quote.title')}
      </h3>
      {moved && (
        <p className="alert alert-info" role="alert" data-testid="kiosk-price-moved">
          {moved}
        </p>
      )}
      <p className="kiosk-headline">
        <span className="muted">{t('kiosk.quote.receives', { customer: quote.customer })}</span>
        <strong className="kiosk-big" data-testid="kiosk-quote-amount">
          {formatCryptoAmount(quote.amount, quote.currency, lang)}
        </strong>
      </p>
      <dl className="kiosk-lines">
        <TermLines t={t} lang={lang} terms={quote} quote={quote} />
      </dl>
      <p className="muted kiosk-hint">{t('kiosk.quote.hint')}</p>
      {summary && (
        <p className="alert alert-error" role="alert" data-testid="kiosk-sale-error">
          {summary}
        </p>
      )}
      <div className="kiosk-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={onConfirm}
        >
          {t(busy ? 'kiosk.quote.confirming' : 'kiosk.quote.confirm')}
        </button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={onEdit}>
          {t('kiosk.quote.edit')}
        </button>
      </div>
    </div>
  );
}

export function ReceiptCard({
  t,
  lang,
  sale,
  quote,
  onNext,
}: {
  t: T;
  lang: string;
  sale: KioskSaleView;
  quote: KioskQuote;
  onNext(): void;
}) {
  return (
    <div className="kiosk-step kiosk-receipt" data-testid="kiosk-receipt">
      <h3 className="kiosk-step-title" id="kiosk-receipt-title" tabIndex={-1}>
        {t('kiosk.receipt.title')}
      </h3>
      <p className="alert alert-success">{t('kiosk.receipt.lead', { customer: sale.customer })}</p>
      <dl className="kiosk-lines">
        <Line name="id" label={t('kiosk.receipt.id')} value={sale.id} />
        <div className="kiosk-line" data-line="time">
          <dt>{t('kiosk.receipt.time')}</dt>
          <dd>
            <SaleTime at={sale.createdAt} lang={lang} />
          </dd>
        </div>
        <Line name="customer" label={t('kiosk.receipt.customer')} value={sale.customer} />
        <Line
          name="amount"
          label={t('kiosk.receipt.amount')}
          value={formatCryptoAmount(sale.amount, sale.currency, lang)}
        />
        <TermLines t={t} lang={lang} terms={sale} quote={quote} />
      </dl>
      <div className="kiosk-actions">
        <button type="button" className="btn btn-primary" onClick={onNext} data-testid="kiosk-new-sale">
          {t('kiosk.receipt.next')}
        </button>
      </div>
    </div>
  );
}
