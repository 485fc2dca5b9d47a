import { localCurrency } from '../lib/local-currency.ts';

// The home search and the vendor market start in the person's currency instead of US dollars
// (issue 19): every `select[data-local-currency]` the person has not touched yet.

const selects = [...document.querySelectorAll<HTMLSelectElement>('select[data-local-currency]')];
if (selects.length > 0) {
  const touched = new WeakSet<HTMLSelectElement>();
  for (const select of selects) select.addEventListener('input', () => touched.add(select), { once: true });
  void localCurrency().then((code) => {
    if (!code) return;
    for (const select of selects) {
      if (touched.has(select) || select.value === code) continue;
      if (![...select.options].some((option) => option.value === code)) select.add(new Option(code, code), 0);
      select.value = code;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
}
