import type { MouseEvent, RefObject } from 'react';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { calculatorUrl } from './convert.ts';
import type { ChartRange } from './types.ts';
import { useCurrencyPicker } from './use-currency-picker.ts';

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

type Entry = { code: string; name: string };

function CurrencyOption({
  entry,
  locale,
  code,
  onPick,
}: {
  entry: Entry;
  locale: Locale;
  code: string;
  onPick: (code: string) => void;
}) {
  return (
    <li>
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
}

// The accessible name starts with the code the button shows ("USD, change currency"): someone
// who says what they see ("click USD") reaches it by voice (WCAG 2.5.3, label in name; decision 142).
function PickerSummary({ t, code }: { t: Props['t']; code: string }) {
  return (
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
  );
}

/** The search: a GET form without JavaScript; with it, Enter takes the first match. */
function PickerSearch({
  t,
  range,
  query,
  matches,
  search,
  onQuery,
  onPick,
}: Pick<Props, 't' | 'range' | 'query' | 'onQuery' | 'onPick'> & {
  matches: Entry[];
  search: RefObject<HTMLInputElement | null>;
}) {
  return (
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
  );
}

/** Popular currencies (unless a search narrows the list), then all that match. */
function PickerLists({
  t,
  locale,
  code,
  query,
  onPick,
  matches,
  popularList,
}: Pick<Props, 't' | 'locale' | 'code' | 'query' | 'onPick'> & { matches: Entry[]; popularList: Entry[] }) {
  const filtering = query.trim() !== '';
  const option = (entry: Entry, group: string) => (
    <CurrencyOption key={`${group}-${entry.code}`} entry={entry} locale={locale} code={code} onPick={onPick} />
  );
  return (
    <div className="calc-picker-lists">
      {!filtering && popularList.length > 0 && (
        <>
          <p className="calc-picker-group" id="calc-popular-title">
            {t('calculator.currency.popular')}
          </p>
          <ul aria-labelledby="calc-popular-title" className="calc-options calc-popular">
            {popularList.map((entry) => option(entry, 'popular'))}
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
          {matches.map((entry) => option(entry, 'all'))}
        </ul>
      )}
    </div>
  );
}

export function CurrencyPicker(props: Props) {
  const { t, code, open, onOpen } = props;
  const { details, search, matches, popularList } = useCurrencyPicker(props);
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
      <PickerSummary t={t} code={code} />
      <div className="calc-picker-panel">
        <PickerSearch {...props} matches={matches} search={search} />
        <PickerLists {...props} matches={matches} popularList={popularList} />
      </div>
    </details>
  );
}
