// The transparency page's figures (issue 24, decision 162): GET /rest/v1/transparency written into
// the prerendered page with textContent only. Every word is already in the page; this picks the
// period, formats numbers in the page's language and draws the monthly bars as plain SVG.

import type { DisputeFigures, TransparencyMonth, TransparencyView } from '../lib/shared/views/transparency.ts';

type Field = keyof DisputeFigures;

const root = document.querySelector<HTMLElement>('[data-transparency]');

if (root) {
  const lang = document.documentElement.lang;
  const withheld = root.dataset.withheld ?? '';
  const count = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  const unit = (name: string) =>
    new Intl.NumberFormat(lang, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits: 1 });
  const [minutes, hours, days] = ['minute', 'hour', 'day'].map(unit) as [
    Intl.NumberFormat,
    Intl.NumberFormat,
    Intl.NumberFormat,
  ];
  const duration = (m: number) =>
    m < 90 ? minutes.format(m) : m < 2_880 ? hours.format(m / 60) : days.format(m / 1_440);
  const month = new Intl.DateTimeFormat(lang, { month: 'short', timeZone: 'UTC' });
  const monthYear = new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const groupNames = new Map(
    [
      ...(document.getElementById('transparency-group-names') as HTMLTemplateElement).content.querySelectorAll('span'),
    ].map((span) => [span.dataset.group ?? '', span.textContent ?? '']),
  );

  /** A figure as shown, or null when it is withheld or has nothing behind it yet. */
  const format = (field: Field, figures: DisputeFigures): string | null => {
    const value = figures[field];
    if (typeof value !== 'number') return null;
    if (field.endsWith('Minutes')) return duration(value);
    if (field.endsWith('Share')) return percent.format(value);
    return count.format(value);
  };
  const show = (node: HTMLElement, field: Field, figures: DisputeFigures) => {
    const text = format(field, figures);
    const hidden = text === null && figures.withheld && figures.disputes > 0;
    node.textContent = text ?? (hidden ? withheld : '—');
    node.classList.toggle('withheld', hidden);
  };
  const row = (table: HTMLTableElement, cells: ((td: HTMLElement) => void)[]) => {
    const labels = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    const tr = (table.tBodies[0] as HTMLTableSectionElement).insertRow();
    cells.forEach((fill, i) => {
      const td = tr.insertCell();
      td.dataset.label = labels[i] ?? '';
      fill(td);
    });
  };
  const table = (name: string) => root.querySelector(`[data-table="${name}"]`) as HTMLTableElement;

  const render = (view: TransparencyView, days: number) => {
    const window = view.windows.find((w) => w.days === days) ?? view.windows[0];
    if (!window) return;
    for (const button of root.querySelectorAll<HTMLButtonElement>('[data-days]'))
      button.setAttribute('aria-pressed', String(button.dataset.days === String(days)));
    for (const node of root.querySelectorAll<HTMLElement>('[data-figure]'))
      show(node, node.dataset.figure as Field, window.overall);
    const groups = table('groups');
    (groups.tBodies[0] as HTMLTableSectionElement).replaceChildren();
    const fields = [...groups.querySelectorAll<HTMLElement>('[data-column]')].map((th) => th.dataset.column as Field);
    for (const figures of window.groups)
      row(groups, [
        (td) => {
          td.textContent = groupNames.get(figures.group) ?? figures.group;
        },
        ...fields.map((field) => (td: HTMLElement) => show(td, field, figures)),
      ]);
  };

  const chart = (months: TransparencyMonth[]) => {
    const svg = root.querySelector('svg') as SVGSVGElement;
    const draw = (name: string, attributes: Record<string, string | number>, text?: string, parent: Element = svg) => {
      const node = parent.appendChild(document.createElementNS('http://www.w3.org/2000/svg', name));
      for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
      if (text !== undefined) node.textContent = text;
      return node;
    };
    // Drawn at the width it is shown, so its labels keep their size on a phone and on a wide screen.
    const width = Math.max(300, Math.round(svg.getBoundingClientRect().width));
    svg.setAttribute('viewBox', `0 0 ${width} 240`);
    const top = Math.max(1, ...months.map((m) => m.perThousandTrades ?? 0));
    // A margin each side as wide as half a value label, so the first and last labels are never cut.
    const margin = 20;
    const slot = (width - 2 * margin) / months.length;
    draw('line', { x1: 0, x2: width, y1: 200, y2: 200 });
    months.forEach((m, i) => {
      const value = m.perThousandTrades ?? 0;
      const height = (value / top) * 170;
      const x = margin + i * slot + slot / 2;
      const at = Date.parse(`${m.month}-01T00:00:00Z`);
      const shown = m.perThousandTrades === null ? '—' : count.format(value);
      const bar = draw('rect', { x: x - slot * 0.3, y: 200 - height, width: slot * 0.6, height, rx: 3 });
      draw('title', {}, `${monthYear.format(at)}: ${shown}`, bar);
      draw('text', { x, y: 224, 'text-anchor': 'middle' }, month.format(at));
      if (m.perThousandTrades !== null) draw('text', { x, y: 192 - height, 'text-anchor': 'middle' }, shown);
      row(table('months'), [
        (td) => {
          td.textContent = monthYear.format(at);
        },
        (td) => {
          td.textContent = count.format(m.trades);
        },
        (td) => {
          td.textContent = count.format(m.disputes);
        },
        (td) => {
          td.textContent = shown;
        },
      ]);
    });
  };

  fetch('/rest/v1/transparency')
    .then((response) => {
      if (!response.ok) throw new Error(String(response.status));
      return response.json() as Promise<{ data: TransparencyView }>;
    })
    .then(({ data }) => {
      let days = 30;
      render(data, days);
      chart(data.months);
      const time = root.querySelector('[data-slot="generatedAt"]') as HTMLTimeElement;
      time.textContent = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
        data.generatedAt,
      );
      time.dateTime = new Date(data.generatedAt).toISOString();
      for (const button of root.querySelectorAll<HTMLButtonElement>('[data-days]'))
        button.addEventListener('click', () => {
          days = Number(button.dataset.days);
          render(data, days);
        });
      root.dataset.state = 'ready';
    })
    .catch(() => {
      root.dataset.state = 'error';
    });
}
