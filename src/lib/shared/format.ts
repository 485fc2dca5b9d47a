// Numbers as people read them (spec section 9): fiat with 2 decimals, crypto amounts with all the
// decimals of their coin (bitcoin 8, tether 6), the Turkish locale writing the currency code after
// the number (crypto amounts: format-crypto.ts). `lang` is a BCP 47 tag (`localeTags`).

const cache = new Map<string, Intl.NumberFormat>();
export function formatter(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.NumberFormat(lang, options);
    cache.set(key, found);
  }
  return found;
}

export const FIAT_DECIMALS = 2;
export const CRYPTO_DECIMALS = 8;

/** The two CFA francs read "F CFA" and "FCFA" in most locales: only their codes tell them apart. */
const WRITTEN_AS_CODE: ReadonlySet<string> = new Set(['XAF', 'XOF']);

/**
 * `$1,234.50`, `CA$1,234.50`, `MX$1,234.50`, `1.234,50 €`; Turkish `1.234,50 USD`. The locale's
 * standard symbol, never the narrow one: ICU makes it unique per locale (the bare "$" is the
 * locale's own dollar only), so prices in currencies that share a sign are never confused (issue
 * 19; tests/unit/format.test.ts checks all 154 currencies in the 19 languages).
 */
export function formatFiat(amount: number, code: string, lang: string, decimals = FIAT_DECIMALS): string {
  const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  if (lang === 'tr') return `${formatter(lang, digits).format(amount)} ${code}`;
  const currencyDisplay = WRITTEN_AS_CODE.has(code) ? 'code' : 'symbol';
  try {
    return formatter(lang, { ...digits, style: 'currency', currency: code, currencyDisplay }).format(amount);
  } catch {
    // A code Intl does not know (never in our list, but the page must not break on it).
    return `${formatter(lang, digits).format(amount)} ${code}`;
  }
}

/** A plain number with grouping, for counts. */
export function formatCount(value: number, lang: string): string {
  return formatter(lang, {}).format(value);
}

/** `+2.5 %`, `−1 %`, `0 %` for a margin given in percent. */
export function formatMargin(percent: number, lang: string): string {
  return formatter(lang, { style: 'percent', maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(
    percent / 100,
  );
}

/** `2.5 %` for a value given in percent, without a sign. */
export function formatPercent(percent: number, lang: string): string {
  return formatter(lang, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}

/** "5 minutes ago", "yesterday", "3 days ago" for a time in unix seconds. */
export function formatAgo(seconds: number, nowSeconds: number, lang: string): string {
  const elapsed = Math.max(0, nowSeconds - seconds);
  const relative = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (elapsed < 60) return relative.format(0, 'second');
  if (elapsed < 3600) return relative.format(-Math.floor(elapsed / 60), 'minute');
  if (elapsed < 86_400) return relative.format(-Math.floor(elapsed / 3600), 'hour');
  return relative.format(-Math.floor(elapsed / 86_400), 'day');
}
