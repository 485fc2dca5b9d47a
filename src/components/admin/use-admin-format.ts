import { createContext, useContext } from 'react';
import { type ApiResult, NETWORK_ERROR_CODE } from '../../lib/api-client.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import type { MessageParams } from '../../lib/shared/i18n/interpolate.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';

// What the console's screens share: the page's translator and language, and numbers and times as
// that language writes them (src/lib/shared/format*.ts), so a German operator reads "1.234,50 €"
// and a Hebrew one the same dates as the rest of the site.

export interface AdminFormat {
  t: (key: string, params?: MessageParams) => string;
  locale: string;
  lang: string;
  /**
   * Epoch milliseconds (as the database keeps them) as a date and time in the reader's language, in UTC: the time the audit log,
   * the server's logs and the CLI give, and the same on the server and in the browser (no
   * hydration mismatch for an operator in another time zone); decision 165.
   */
  when: (ms: number | null | undefined) => string;
  crypto: (money: { amount: string; currency: 'BTC' | 'USDT' }, sign?: boolean) => string;
  fiat: (money: { amount: string; currency: string }) => string;
  /** US cents (the limits) as dollars. */
  usd: (cents: number) => string;
  /** `/rest/v1/…` with `locale=…`, so the server's messages come back in the page's language. */
  api: (path: string) => string;
}

export function adminFormat(locale: string, lang: string, messages: IslandMessages): AdminFormat {
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return {
    t: islandTranslator(messages),
    locale,
    lang,
    when: (ms) => (ms === null || ms === undefined ? '—' : `${dates.format(ms)} UTC`),
    crypto: (money, sign = false) => formatCryptoAmount(money.amount, money.currency, lang, { sign }),
    fiat: (money) => formatFiat(Number(money.amount), money.currency, lang),
    usd: (cents) => formatFiat(cents / 100, 'USD', lang),
    api: (path) => `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`,
  };
}

export const AdminFormatContext = createContext<AdminFormat | null>(null);

export function useAdminFormat(): AdminFormat {
  const value = useContext(AdminFormatContext);
  if (!value) throw new Error('A console screen is rendered outside its AdminFormatContext.');
  return value;
}

/** The message a failed call shows: the server's own (in the page's language), else a general one. */
export function failureMessage(result: ApiResult<unknown>, t: AdminFormat['t']): string {
  if (result.errors.some((e) => e.code === NETWORK_ERROR_CODE)) return t('admin.error.network');
  return result.errors.find((e) => e.message)?.message || t('admin.error.generic');
}
