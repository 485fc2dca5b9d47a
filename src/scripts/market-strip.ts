// The home page's market strip (decision 136): bitcoin and tether in the currency of the search
// box beside it (which src/scripts/local-currency.ts turns to the person's own) with their 24 h
// change. The static page paints the slots at their final size; this fills them from the
// currency's rates (GET /rest/v1/currencies/{code}) and the market's changes (GET
// /rest/v1/crypto-fiat-rates, snake_case keys), and again every 20 s while the page is in view: a light poll, where
// a socket would not fit the static pages' script budget (tests/e2e/marketing.test.ts).

interface Currency {
  code: string;
  rate: Record<string, number>;
}

const strip = document.querySelector<HTMLElement>('[data-market-strip]');
const select = document.querySelector<HTMLSelectElement>('[data-local-currency]');

if (strip) {
  const lang = document.documentElement.lang;
  const percent = new Intl.NumberFormat(lang, {
    style: 'percent',
    minimumFractionDigits: 2,
    signDisplay: 'exceptZero',
  });
  const data = async <T>(url: string): Promise<T> => ((await (await fetch(url)).json()) as { data: T }).data;
  // The newest load wins: the currency may change while an older answer is on its way.
  let latest = 0;

  const load = async () => {
    const id = ++latest;
    try {
      const [currency, changes] = await Promise.all([
        data<Currency>(`/rest/v1/currencies/${select?.value || 'USD'}`),
        data<Record<string, number | null>>('/rest/v1/crypto-fiat-rates'),
      ]);
      if (id !== latest) return;
      for (const coin of strip.querySelectorAll('li')) {
        const code = coin.dataset.coin as string;
        const ratio = changes[`${code}_change24h`];
        // Two <bdi>: the price, then the change's number (after its words for screen readers).
        const [price, change] = coin.querySelectorAll('bdi');
        // `data-digits`: a tether's price moves in the 4th decimal; a bitcoin's shows as its currency does.
        (price as HTMLElement).textContent = new Intl.NumberFormat(lang, {
          style: 'currency',
          currency: currency.code,
          minimumFractionDigits: coin.dataset.digits as unknown as number,
        }).format(currency.rate[code] as number);
        // The change's sign, 1, 0 or -1, picks its colour and arrow; none known (no history a day
        // ago): no arrow and no number.
        coin.dataset.trend = ratio == null ? '' : String(Math.sign(ratio));
        (change as HTMLElement).textContent = ratio == null ? '' : percent.format(ratio);
      }
      strip.dataset.state = 'ready';
    } catch {
      if (id === latest) strip.dataset.state = 'error';
    }
  };

  void load();
  select?.addEventListener('change', load);
  setInterval(() => document.hidden || load(), 20_000);
}
