import { useMemo, useState } from 'react';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { fieldId } from './form.ts';
import { OptionList, Picked, SearchBox } from './options.tsx';
import type { EditorCurrency } from './types.ts';
import { FieldError, useEditor } from './ui.tsx';

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
      <Picked id={id} picked={selected && [selected.code, selected.name]} none={t('offerEditor.currency.none')} />
      <SearchBox
        field="currency"
        error={error}
        value={query}
        placeholder={t('offerEditor.currency.search')}
        onChange={setQuery}
      />
      <OptionList
        className="option-list"
        aria-label={t('offerEditor.currency.label')}
        empty={t('offerEditor.noMatches')}
        type="radio"
        name="currency"
        options={matches.map((c) => ({ value: c.code, main: c.code, sub: c.name, checked: value === c.code }))}
        onPick={(code) => onChange(code)}
      />
      <FieldError field="currency" error={error} />
    </div>
  );
}
