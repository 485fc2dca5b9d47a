import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { BalancePair, KioskCurrency, KioskQuote, KioskSaleView } from '../../lib/shared/views/kiosks.ts';
import { formErrors, kioskApi, type SaleRequest } from './api.ts';
import type { Announce, T } from './types.ts';

// One sale at the counter: the form (customer, crypto, cash and its currency) asks for a quote;
// the operator reads it to the customer and confirms; the receipt shows until "New sale". A price
// that moved more than 1 % since the quote comes back as a new quote to read again (409
// KIOSK_PRICE_MOVED with meta.quote). Each confirmation carries a fresh idempotency key.

export const SALE_FIELDS = ['customer', 'currency', 'fiatCurrency', 'fiatAmount'] as const;

export type SaleStage =
  | { step: 'form' }
  | { step: 'quote'; quote: KioskQuote; moved: string | null }
  | { step: 'receipt'; sale: KioskSaleView; quote: KioskQuote };

interface Options {
  t: T;
  locale: Locale;
  lang: string;
  defaultFiat: string;
  onSold(sale: KioskSaleView, balance: BalancePair): void;
  announce: Announce;
}

/** What the operator typed, the form's own checks, and the body a quote is asked with. */
function useSaleFields(defaultFiat: string, t: T) {
  const [fields, setFields] = useState<SaleRequest>({
    customer: '',
    currency: 'BTC',
    fiatCurrency: defaultFiat,
    fiatAmount: '',
  });
  const set = (name: keyof SaleRequest, value: string) => setFields((now) => ({ ...now, [name]: value }));
  const cash = () => fields.fiatAmount.trim().replace(',', '.');
  /** The form's own checks: a username, and a cash amount with at most two decimals. */
  const checked = (): Record<string, string> => {
    const found: Record<string, string> = {};
    if (!fields.customer.trim()) found.customer = t('kiosk.sale.customerRequired');
    if (!/^\d+(\.\d{1,2})?$/.test(cash()) || Number(cash()) <= 0) found.fiatAmount = t('kiosk.sale.fiatAmountInvalid');
    return found;
  };
  const body = (): SaleRequest => ({ ...fields, customer: fields.customer.trim(), fiatAmount: cash() });
  /** Blank for the next customer; the crypto and the cash currency stay. */
  const clear = () => setFields((now) => ({ ...now, customer: '', fiatAmount: '' }));
  return { fields, set, checked, body, clear };
}

export function useSale({ t, locale, lang, defaultFiat, onSold, announce }: Options) {
  const { fields, set, checked, body, clear } = useSaleFields(defaultFiat, t);
  const [stage, setStage] = useState<SaleStage>({ step: 'form' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  useStageFocus(stage.step);

  const quote = async (event: SubmitEvent) => {
    event.preventDefault();
    setSummary(null);
    const local = checked();
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    const answer = await kioskApi.quote(locale, body());
    setBusy(false);
    if (answer.ok && answer.data) {
      setStage({ step: 'quote', quote: answer.data, moved: null });
      return;
    }
    const found = formErrors(answer, SALE_FIELDS, t('kiosk.sale.quoteFailed'));
    setErrors(found.fields);
    setSummary(found.summary ?? null);
  };

  const confirm = async () => {
    if (stage.step !== 'quote') return;
    setSummary(null);
    setBusy(true);
    const answer = await kioskApi.sell(locale, stage.quote);
    setBusy(false);
    if (answer.ok && answer.data) {
      const { sale, balance } = answer.data;
      onSold(sale, balance);
      setStage({ step: 'receipt', sale, quote: stage.quote });
      const amount = formatCryptoAmount(sale.amount, sale.currency, lang);
      announce(t('kiosk.receipt.announce', { amount, customer: sale.customer }));
      return;
    }
    const [error] = answer.errors;
    const newer = answer.meta?.quote as KioskQuote | undefined;
    if (error?.code === 'KIOSK_PRICE_MOVED' && newer) {
      setStage({ step: 'quote', quote: newer, moved: error.message || t('errors.kiosk_price_moved') });
    } else if (error?.code === 'INSUFFICIENT_FUNDS') {
      setSummary(t('kiosk.sale.insufficient'));
    } else {
      setSummary(formErrors(answer, [], t('kiosk.sale.failed')).summary ?? null);
    }
  };

  /** Back to the form with what was typed, to change it. */
  const edit = () => {
    setSummary(null);
    setStage({ step: 'form' });
  };

  /** A blank form for the next customer. */
  const next = () => {
    setSummary(null);
    setErrors({});
    clear();
    setStage({ step: 'form' });
  };

  return { fields, set, stage, busy, errors, summary, quote, confirm, edit, next };
}

export type SaleState = ReturnType<typeof useSale>;

/** Each step's first element takes the focus when the step changes (not on the first render). */
function useStageFocus(step: SaleStage['step']) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const target = { form: 'kiosk-sale-customer', quote: 'kiosk-quote-title', receipt: 'kiosk-receipt-title' }[step];
    document.getElementById(target)?.focus();
  }, [step]);
}

export const CRYPTO_CHOICES: KioskCurrency[] = ['BTC', 'USDT'];
