import { useMemo, useState } from 'react';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { fieldId } from './form.ts';
import type { EditorCurrency } from './types.ts';
import { controlAria, FieldError, useEditor } from './ui.tsx';

// The offer's fiat currency: a search box over code and name, and the matching currencies as
// radio buttons (popular ones first, in the API's order). Native radios keep it keyboard- and
// screen-reader-friendly without a hand-made combobox.

const SHOWN = 40;

export function CurrencyPicker({
  currencies,
  value,
  onChange,
  error,
}: {
  currencies: readonly EditorCurrency[];
  value: string;
  onChange: (code: string) => void;
  error: string | undefined;
}) {
  const { t } = useEditor();
  const [query, setQuery] = useState('');
  const selected = currencies.find((c) => c.code === value);
  const matches = useMemo(() => {
    const q = foldForSearch(query);
    const found = q
      ? currencies.filter((c) => c.code.toLowerCase().startsWith(q) || foldForSearch(c.name).includes(q))
      : currencies;
    return found.slice(0, SHOWN);
  }, [currencies, query]);
  const id = fieldId('currency');

  return (
    <div className="field picker">
      <label htmlFor={id}>{t('offerEditor.currency.label')}</label>
      <p className="picked" id={`${id}-hint`}>
        {selected ? (
          <>
            <strong>{selected.code}</strong> · {selected.name}
          </>
        ) : (
          t('offerEditor.currency.none')
        )}
      </p>
      <input
        {...controlAria('currency', error, true)}
        className="input"
        type="search"
        value={query}
        placeholder={t('offerEditor.currency.search')}
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
      />
      <fieldset className="option-list" aria-label={t('offerEditor.currency.label')}>
        {matches.length === 0 && <p className="muted empty">{t('offerEditor.noMatches')}</p>}
        {matches.map((c) => (
          <label key={c.code} className="option">
            <input
              type="radio"
              name="currency"
              value={c.code}
              checked={value === c.code}
              onChange={() => onChange(c.code)}
            />
            <span className="option-main">{c.code}</span>
            <span className="option-sub">{c.name}</span>
          </label>
        ))}
      </fieldset>
      <FieldError field="currency" error={error} />
    </div>
  );
}
