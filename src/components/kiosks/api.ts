import { type ApiError, type ApiResult, apiGet, apiPost, apiRequest, splitErrors } from '../../lib/api-client.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type {
  BalancePair,
  KioskCurrency,
  KioskQuote,
  KioskSaleResult,
  KioskView,
} from '../../lib/shared/views/kiosks.ts';

// The /kiosk screen's calls (server/routes/kiosks.ts), each asked in the page's language so the
// API's error messages come translated (`errors.<key>`). Nothing here throws: every answer is an
// ApiResult. Each transfer and sale carries a fresh idempotency key, made per click.

/** `path` asked in the page's language. */
export const inLocale = (locale: Locale, path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${locale}`;

/** A fresh key per click (the API's 8–100 of [A-Za-z0-9_-]): a retry of the same click repeats none. */
export const newIdempotencyKey = () => crypto.randomUUID().replaceAll('-', '');

export interface SaleRequest {
  customer: string;
  currency: KioskCurrency;
  fiatCurrency: string;
  fiatAmount: string;
}

export interface TransferRequest {
  direction: 'in' | 'out';
  currency: KioskCurrency;
  amount: string;
}

export const kioskApi = {
  read: (locale: Locale) => apiGet<KioskView>(inLocale(locale, '/rest/v1/kiosk')),
  margin: (locale: Locale, marginPercent: string) =>
    apiRequest<KioskView>('PUT', inLocale(locale, '/rest/v1/kiosk/margin'), { marginPercent }),
  transfer: (locale: Locale, body: TransferRequest) =>
    apiPost<{ balance: BalancePair; transactionId: string; replayed: boolean }>(
      inLocale(locale, '/rest/v1/kiosk/transfer'),
      { ...body, idempotency_key: newIdempotencyKey() },
    ),
  quote: (locale: Locale, body: SaleRequest) => apiPost<KioskQuote>(inLocale(locale, '/rest/v1/kiosk/quote'), body),
  sell: (locale: Locale, quote: KioskQuote) =>
    apiPost<KioskSaleResult>(inLocale(locale, '/rest/v1/kiosk/sales'), {
      customer: quote.customer,
      currency: quote.currency,
      fiatCurrency: quote.fiatCurrency,
      fiatAmount: quote.fiatAmount,
      amount: quote.amount,
      idempotency_key: newIdempotencyKey(),
    }),
};

/** A failed answer's messages: those of `fields` beside their field, the rest (or `fallback`) above the form. */
export function formErrors(
  answer: ApiResult<unknown>,
  fields: readonly string[],
  fallback: string,
): { summary: string | undefined; fields: Record<string, string> } {
  const split = splitErrors(answer.errors, fields);
  const empty = Object.keys(split.fields).length === 0;
  return { summary: split.summary || (empty ? fallback : undefined), fields: split.fields };
}

/** The first message of a failed answer (a field's own first), else `fallback`. */
export function messageOf(answer: { errors: ApiError[] }, fallback: string) {
  const [error] = answer.errors;
  return error?.details?.[0]?.message || error?.message || fallback;
}
