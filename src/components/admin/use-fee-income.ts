import type { FeeCurrency, FeeSeries } from './use-fee-chart.ts';

// The fee income screen's data (GET /rest/v1/operators/fees): the API's rows per UTC day,
// currency and payment-method group, turned into the chart's lines (one per currency, a point on
// every day of the range) and the table's rows with group names. Amounts stay the API's exact
// decimal strings in the table; only the chart reads them as numbers.

export interface FeeIncomeView {
  from: string;
  to: string;
  days: { date: string; group: string; minor: number; amount: string; currency: FeeCurrency }[];
  totals: { minor: number; amount: string; currency: FeeCurrency }[];
  groups: { slug: string; name: string }[];
}

const DAY_MS = 86_400_000;

/** Every date from `from` to `to`, both included (YYYY-MM-DD, UTC). */
export function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) {
    dates.push(new Date(at).toISOString().slice(0, 10));
  }
  return dates;
}

/** One line per currency that earned anything in the range; minor units summed over the groups. */
export function feeSeriesOf(income: FeeIncomeView): FeeSeries[] {
  const decimals: Record<FeeCurrency, number> = { BTC: 8, USDT: 6 };
  const dates = datesOf(income.from, income.to);
  return (['BTC', 'USDT'] as const)
    .filter((currency) => income.days.some((row) => row.currency === currency))
    .map((currency) => {
      const perDay = new Map<string, number>();
      for (const row of income.days) {
        if (row.currency === currency) perDay.set(row.date, (perDay.get(row.date) ?? 0) + row.minor);
      }
      return {
        currency,
        points: dates.map((date) => ({ date, value: (perDay.get(date) ?? 0) / 10 ** decimals[currency] })),
      };
    });
}

/** A group's name as the catalogue writes it; its slug when unknown. */
export function groupName(income: FeeIncomeView, slug: string): string {
  return income.groups.find((group) => group.slug === slug)?.name ?? slug;
}
