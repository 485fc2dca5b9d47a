import { type MouseEvent, useEffect, useMemo, useRef } from 'react';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { calculatorUrl, searchCurrencies } from './convert.ts';
import type { ChartRange } from './types.ts';

// The currency list: popular currencies first, then all, narrowed by a search. It is a <details>
// of plain links inside a GET form, so without JavaScript it opens, its links go to the other
// calculators and the search submits `?q=` (the page filters the list, or goes straight to a code
// typed in full). With JavaScript the search filters as one types, Enter takes the first match,
// and a click switches currency in place (the island pushes the new URL).

interface Props {
  t: ReturnType<typeof islandTranslator>;
  locale: Locale;
  code: string;
  currencies: { code: string; name: string }[];
  popular: string[];
  query: string;
  open: boolean;
  range: ChartRange;
  onQuery: (query: string) => void;
  onOpen: (open: boolean) => void;
  onPick: (code: string) => void;
}

/** A plain left click: the others (new tab, new window) keep the link's own behaviour. */
export function isPlainClick(event: MouseEvent): boolean {
  return !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0);
}

export function CurrencyPicker({
  t,
  locale,
  code,
  currencies,
  popular,
  query,
  open,
  range,
  onQuery,
  onOpen,
  onPick,
}: Props) {
  const details = useRef<HTMLDetailsElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => searchCurrencies(currencies, query), [currencies, query]);
  const popularList = useMemo(
    () => popular.flatMap((c) => currencies.filter((entry) => entry.code === c)),
    [currencies, popular],
  );

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    // A click or a focus outside closes the list, like a native select.
    const outside = (event: Event) => {
      if (details.current && !details.current.contains(event.target as Node)) onOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open, onOpen]);

  const item = (entry: { code: string; name: string }, group: string) => (
    <li key={`${group}-${entry.code}`}>
      <a
        href={calculatorUrl(locale, entry.code)}
        className="calc-option"
        data-currency={entry.code}
        aria-current={entry.code === code ? 'true' : undefined}
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          onPick(entry.code);
        }}
      >
        <strong>{entry.code}</strong>
        <span>{entry.name}</span>
      </a>
    </li>
  );

  const filtering = query.trim() !== '';
  return (
    <details
      ref={details}
      className="calc-picker"
      open={open}
      onToggle={(event) => {
        const isOpen = (event.currentTarget as HTMLDetailsElement).open;
        if (isOpen !== open) onOpen(isOpen);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          onOpen(false);
          details.current?.querySelector('summary')?.focus();
        }
      }}
    >
      <summary className="calc-picker-button" aria-label={t('calculator.currency.change', { code })}>
        <span className="calc-picker-code" data-current-currency>
          {code}
        </span>
        <svg
          width="14"
          height="14"
          viewBox="0 0 24 24"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </summary>
      <div className="calc-picker-panel">
        <form
          method="get"
          className="calc-picker-search"
          onSubmit={(event) => {
            event.preventDefault();
            const first = matches[0];
            if (first) onPick(first.code);
          }}
        >
          {range !== 'month' && <input type="hidden" name="range" value={range} />}
          <label className="visually-hidden" htmlFor="calc-currency-search">
            {t('calculator.currency.search')}
          </label>
          <input
            ref={search}
            id="calc-currency-search"
            name="q"
            type="search"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('calculator.currency.placeholder')}
            value={query}
            onChange={(event) => onQuery(event.target.value)}
          />
          <button type="submit" className="btn btn-secondary nojs-only">
            {t('calculator.currency.go')}
          </button>
        </form>
        <div className="calc-picker-lists">
          {!filtering && popularList.length > 0 && (
            <>
              <p className="calc-picker-group" id="calc-popular-title">
                {t('calculator.currency.popular')}
              </p>
              <ul aria-labelledby="calc-popular-title" className="calc-options calc-popular">
                {popularList.map((entry) => item(entry, 'popular'))}
              </ul>
            </>
          )}
          <p className="calc-picker-group" id="calc-all-title">
            {t('calculator.currency.all')}
          </p>
          {matches.length === 0 ? (
            <p className="calc-picker-none muted" role="status">
              {t('calculator.currency.none', { query })}
            </p>
          ) : (
            <ul aria-labelledby="calc-all-title" className="calc-options" data-matches={matches.length}>
              {matches.map((entry) => item(entry, 'all'))}
            </ul>
          )}
        </div>
      </div>
    </details>
  );
}
