// Prices and limits as people read them, shared by the editor island and the my-offers page.
// Fiat shows the currency's own decimals; Turkish writes the code after the number (spec section 9).

export function formatMoney(amount: number, code: string, lang: string, decimals = 2): string {
  const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  if (lang.startsWith('tr')) return `${new Intl.NumberFormat(lang, digits).format(amount)} ${code}`;
  try {
    return new Intl.NumberFormat(lang, {
      ...digits,
      style: 'currency',
      currency: code,
      currencyDisplay: 'narrowSymbol',
    }).format(amount);
  } catch {
    // A code ICU does not know still reads as number and code.
    return `${new Intl.NumberFormat(lang, digits).format(amount)} ${code}`;
  }
}

/** `2.5` → `+2.5 %` in the reader's convention (zero and unsigned values without a sign). */
export function formatPercent(percent: number, lang: string, signed = true): string {
  return new Intl.NumberFormat(lang, {
    style: 'percent',
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(percent / 100);
}

/** Half up at `decimals` by decimal exponent, as the server rounds an offer's price (offer-view.ts). */
export function roundTo(value: number, decimals: number): number {
  const text = String(value);
  if (text.includes('e')) return Math.round(value * 10 ** decimals) / 10 ** decimals;
  return Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
}

/** The offer's price per coin: the market moved by the margin, in the currency's minor units. */
export function marginPrice(market: number, marginPercent: number, decimals: number): number {
  return roundTo(market * (1 + marginPercent / 100), decimals);
}
