import { formatFiat } from '../lib/shared/format.ts';

// Live prices on the vendor landing page: the current bitcoin price, the weekly chart (a
// hand-drawn SVG polyline) and the exchange-rates table. Each widget moves through the loading
// states of spec section 4 (`data-state`: loading → ready | error); CSS shows the matching part.

interface Rate {
  usd: number;
  btc: number;
  usdt: number;
}
interface Currency {
  code: string;
  name: string;
  rate: Rate;
}
interface Point {
  date: number;
  rate: number;
}

const root = document.querySelector<HTMLElement>('[data-market]');
const lang = document.documentElement.lang;

async function get<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

function currencyName(currency: Currency): string {
  try {
    const name = new Intl.DisplayNames([lang], { type: 'currency' }).of(currency.code);
    if (name && name !== currency.code) return name;
  } catch {}
  return currency.name;
}

if (root) {
  const widget = (name: string) => root.querySelector<HTMLElement>(`[data-widget="${name}"]`);
  const find = <T extends Element = HTMLElement>(scope: ParentNode | null, selector: string) =>
    scope?.querySelector<T>(selector) ?? null;
  const select = find<HTMLSelectElement>(root, '[data-currency-select]');
  const percent = new Intl.NumberFormat(lang, {
    style: 'percent',
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  });

  // Runs `load` for a widget with its loading/ready/error states. A newer run of the same
  // widget (the visitor switched currency again) wins: `current()` turns false for the older.
  const latest: Record<string, number> = {};
  async function run(name: string, load: (el: HTMLElement, current: () => boolean) => Promise<void>) {
    const el = widget(name);
    if (!el) return;
    const id = (latest[name] ?? 0) + 1;
    latest[name] = id;
    const current = () => latest[name] === id;
    el.dataset.state = 'loading';
    el.setAttribute('aria-busy', 'true');
    let state = 'ready';
    try {
      await load(el, current);
    } catch {
      state = 'error';
    }
    if (!current()) return;
    el.dataset.state = state;
    el.setAttribute('aria-busy', 'false');
  }

  const showChange = (el: HTMLElement | null, change: number) => {
    if (!el) return;
    el.textContent = percent.format(change);
    el.classList.toggle('down', change < 0);
    el.classList.toggle('up', change >= 0);
  };

  // The price card shows the chart's 7-day change once both have loaded, in either order.
  let weekChange: number | undefined;
  const showWeekOnPrice = (change: number) => {
    const price = widget('price');
    const row = find(price, '[data-change-row]');
    if (row) row.hidden = false;
    showChange(find(price, '[data-change]'), change);
  };

  const loadPrice = (code: string) =>
    run('price', async (el, current) => {
      const currency = await get<Currency>(`/rest/v1/currencies/${encodeURIComponent(code)}`);
      if (!current()) return;
      const value = find(el, '[data-price-value]');
      const caption = find(el, '[data-caption]');
      if (value) value.textContent = formatFiat(currency.rate.btc, currency.code, lang);
      if (caption) caption.textContent = (caption.dataset.template ?? '').replace('{currency}', currency.code);
      if (weekChange !== undefined) showWeekOnPrice(weekChange);
    });

  const loadChart = (code: string) =>
    run('chart', async (el, current) => {
      const points = (await get<Point[]>(`/rest/v1/vendorlanding/graph?currency=${encodeURIComponent(code)}`))
        .filter((p) => Number.isFinite(p.rate) && Number.isFinite(p.date))
        .sort((a, b) => a.date - b.date);
      if (!current()) return;
      const first = points[0];
      const last = points[points.length - 1];
      if (!first || !last || points.length < 2) throw new Error('no chart data');

      const rates = points.map((p) => p.rate);
      const min = Math.min(...rates);
      const max = Math.max(...rates);
      const span = last.date - first.date || 1;
      const range = max - min || 1;
      // viewBox 600×200, 12 units of air above and below the line.
      const x = (p: Point) => ((p.date - first.date) / span) * 600;
      const y = (rate: number) => 12 + ((max - rate) / range) * 176;
      const coords = points.map((p) => `${x(p).toFixed(1)},${y(p.rate).toFixed(1)}`);
      find(el, '[data-line]')?.setAttribute('points', coords.join(' '));
      find(el, '[data-area]')?.setAttribute('d', `M0,200L${coords.join('L')}L600,200Z`);

      const label = (name: 'high' | 'low', rate: number) => {
        const point = points.find((p) => p.rate === rate) ?? first;
        const marker = find(el, `[data-marker="${name}"]`);
        const text = formatFiat(rate, code, lang);
        const cell = find(el, `[data-${name}]`);
        if (cell) cell.textContent = text;
        if (!marker) return;
        marker.textContent = text;
        marker.style.left = `${Math.min(88, Math.max(12, (x(point) / 600) * 100))}%`;
        marker.style.top = `${(y(rate) / 200) * 100}%`;
      };
      label('high', max);
      label('low', min);

      weekChange = (last.rate - first.rate) / first.rate;
      showChange(find(el, '[data-change]'), weekChange);
      showWeekOnPrice(weekChange);

      // A label under each local midnight in the range (at most 7 for a week of data).
      const weekday = new Intl.DateTimeFormat(lang, { weekday: 'short' });
      const labels: HTMLLIElement[] = [];
      const day = new Date(first.date * 1000);
      day.setHours(24, 0, 0, 0);
      for (; day.getTime() / 1000 < last.date && labels.length < 7; day.setDate(day.getDate() + 1)) {
        const x = ((day.getTime() / 1000 - first.date) / span) * 100;
        if (x < 3 || x > 97) continue; // a label half outside the chart helps nobody
        const li = document.createElement('li');
        li.textContent = weekday.format(day);
        li.style.left = `${x}%`;
        labels.push(li);
      }
      find(el, '[data-days]')?.replaceChildren(...labels);
    });

  const loadRates = () =>
    run('rates', async (el) => {
      const { currencies } = await get<{ currencies: Currency[] }>('/rest/v1/vendorlanding/currency');
      const rows = find(el, '[data-rows]');
      rows?.replaceChildren(
        ...currencies.map((currency) => {
          const row = document.createElement('tr');
          const name = document.createElement('td');
          const strong = document.createElement('strong');
          const small = document.createElement('small');
          strong.textContent = currency.code;
          small.textContent = currencyName(currency);
          name.append(strong, small);
          row.append(name);
          for (const value of [currency.rate.btc, currency.rate.usdt]) {
            const cell = document.createElement('td');
            cell.textContent = formatFiat(value, currency.code, lang);
            row.append(cell);
          }
          return row;
        }),
      );
      if (select && currencies.length) {
        const current = select.value;
        select.replaceChildren(
          ...currencies.map((currency) => new Option(currency.code, currency.code, false, currency.code === current)),
        );
      }
    });

  const loadCurrency = (code: string) => {
    weekChange = undefined;
    const row = find(widget('price'), '[data-change-row]');
    if (row) row.hidden = true;
    void loadChart(code);
    void loadPrice(code);
  };
  const loadAll = () => {
    loadCurrency(select?.value || root.dataset.currency || 'USD');
    void loadRates();
  };

  select?.addEventListener('change', () => loadCurrency(select.value));
  root.addEventListener('click', (event) => {
    if ((event.target as Element).closest('[data-retry]')) loadAll();
  });
  loadAll();
}
