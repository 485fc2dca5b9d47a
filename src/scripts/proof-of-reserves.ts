// The proof page's figures (issue 24, decision 149): the published roots from GET /rest/v1/proof
// and what the platform's addresses hold from GET /rest/v1/proof/reserves, written into clones of
// the page's cards, one per currency, with textContent only. Every word and every card is in the
// prerendered page; this fills in the figures and picks which of its notes shows (data-state:
// loading, empty, ready, error). Before any publication the cards still show what is held.

interface Root {
  currency: string;
  rootHash: string;
  total: string;
  leafCount: number;
}
interface Publication {
  id: string;
  publishedAt: number;
  roots: Root[];
}
interface Reserve {
  currency: string;
  network: string;
  available: boolean;
  total: string;
  ratio: number | null;
  addresses: { address: string; balance: string }[];
}

/** Addresses shown per currency; the rest are in the API's answer, which the page links. */
const SHOWN = 10;

const root = document.querySelector<HTMLElement>('[data-proof]');

if (root) {
  const lang = document.documentElement.lang;
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const count = new Intl.NumberFormat(lang);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  // Isolated left-to-right, so "0.015 BTC" keeps its order in a right-to-left page.
  const amount = (text: string, currency: string) =>
    `\u2066${new Intl.NumberFormat(lang, { maximumFractionDigits: 8 }).format(Number(text))}\u00a0${currency}\u2069`;
  const data = async <T>(url: string): Promise<T> => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url);
    return ((await response.json()) as { data: T }).data;
  };
  const list = (name: string) => root.querySelector(`[data-list="${name}"]`) as HTMLElement;
  const card = (name: string, currency: string) =>
    list(name).querySelector(`[data-currency="${currency}"]`) as HTMLElement | null;
  const fill = (scope: ParentNode, values: Record<string, string>) => {
    for (const [slot, value] of Object.entries(values)) {
      (scope.querySelector(`[data-slot="${slot}"]`) as HTMLElement).textContent = value;
    }
  };
  const time = (slot: string, at: number) => {
    const node = root.querySelector(`[data-slot="${slot}"]`) as HTMLTimeElement;
    node.textContent = date.format(at);
    node.dateTime = new Date(at).toISOString();
  };
  // Each cell carries its column's heading: on a phone the rows stack and show it beside the value.
  const headings = [...root.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  const cell = (row: HTMLElement, text: string, code = false) => {
    const td = row.appendChild(document.createElement('td'));
    td.dataset.label = headings[row.children.length - 1] ?? '';
    if (code) {
      const c = td.appendChild(document.createElement('code'));
      c.dir = 'ltr';
      c.textContent = text;
    } else td.textContent = text;
  };

  const fillReserve = (reserve: Reserve) => {
    const scope = card('reserves', reserve.currency);
    if (!scope) return;
    const slot = (name: string) => scope.querySelector(`[data-slot="${name}"]`) as HTMLElement;
    slot('total').textContent = reserve.available ? amount(reserve.total, reserve.currency) : '—';
    slot('unavailable').hidden = reserve.available;
    slot('none').hidden = !reserve.available || reserve.addresses.length > 0;
    for (const { address, balance } of reserve.addresses.slice(0, SHOWN)) {
      const item = slot('addresses').appendChild(document.createElement('li'));
      const code = item.appendChild(document.createElement('code'));
      code.dir = 'ltr';
      code.textContent = address;
      item.appendChild(document.createElement('span')).textContent = amount(balance, reserve.currency);
    }
    const more = reserve.addresses.length - SHOWN;
    slot('more').textContent = more > 0 ? (slot('more').dataset.text ?? '').replace('{count}', count.format(more)) : '';
  };

  const render = (publications: Publication[], reserves: { readAt: number; currencies: Reserve[] }) => {
    const latest = publications[0];
    time('readAt', reserves.readAt);
    reserves.currencies.forEach(fillReserve);
    for (const reserve of reserves.currencies) {
      const scope = card('latest', reserve.currency);
      if (scope && reserve.available) fill(scope, { held: amount(reserve.total, reserve.currency) });
    }
    if (!latest) {
      root.dataset.state = 'empty';
      return;
    }
    time('publishedAt', latest.publishedAt);
    fill(root, { publicationId: latest.id });
    for (const r of latest.roots) {
      const scope = card('latest', r.currency);
      const reserve = reserves.currencies.find((c) => c.currency === r.currency);
      if (!scope) continue;
      fill(scope, {
        owed: amount(r.total, r.currency),
        ratio: reserve?.ratio == null ? '—' : percent.format(reserve.ratio),
        accounts: count.format(r.leafCount),
        root: r.rootHash,
      });
    }
    list('history').replaceChildren(
      ...publications.flatMap((p) =>
        p.roots.map((r) => {
          const row = document.createElement('tr');
          cell(row, date.format(p.publishedAt));
          cell(row, r.currency);
          cell(row, amount(r.total, r.currency));
          cell(row, count.format(r.leafCount));
          cell(row, r.rootHash, true);
          return row;
        }),
      ),
    );
    root.dataset.state = 'ready';
  };

  Promise.all([
    data<Publication[]>('/rest/v1/proof?limit=30'),
    data<{ readAt: number; currencies: Reserve[] }>('/rest/v1/proof/reserves'),
  ])
    .then(([publications, reserves]) => render(publications, reserves))
    .catch(() => {
      root.dataset.state = 'error';
    });
}
