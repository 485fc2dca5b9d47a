import { useMemo, useState } from 'react';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { fieldId } from './form.ts';
import { OptionList, SearchBox } from './options.tsx';
import type { EditorCountry } from './types.ts';
import { FieldError, Hint, useEditor } from './ui.tsx';

// A list of countries (allowed or blocked): the chosen ones as removable chips, and a search
// that lists matching countries as checkboxes while the vendor types.

const SHOWN = 12;

export function CountryPicker({
  field,
  label,
  hint,
  countries,
  value,
  onChange,
  error,
}: {
  field: 'allowed_countries' | 'blocked_countries';
  label: string;
  hint: string;
  countries: readonly EditorCountry[];
  value: readonly string[];
  onChange: (codes: string[]) => void;
  error: string | undefined;
}) {
  const { t } = useEditor();
  const [query, setQuery] = useState('');
  const nameOf = (iso: string) => countries.find((c) => c.iso === iso)?.name ?? iso;
  const matches = useMemo(() => {
    const q = foldForSearch(query);
    if (!q) return [];
    return countries.filter((c) => c.iso.toLowerCase() === q || foldForSearch(c.name).includes(q)).slice(0, SHOWN);
  }, [countries, query]);
  const toggle = (iso: string, on: boolean) =>
    onChange(on ? [...value.filter((c) => c !== iso), iso] : value.filter((c) => c !== iso));
  const id = fieldId(field);

  return (
    <div className="field picker">
      <label htmlFor={id}>{label}</label>
      <Hint field={field}>{hint}</Hint>
      {value.length > 0 && (
        <ul className="chip-list" aria-label={t('offerEditor.countries.chosen', { label })}>
          {value.map((iso) => (
            <li key={iso} className="chip">
              <span>{nameOf(iso)}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={t('offerEditor.countries.remove', { country: nameOf(iso) })}
                onClick={() => toggle(iso, false)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <SearchBox
        field={field}
        error={error}
        value={query}
        placeholder={t('offerEditor.countries.search')}
        onChange={setQuery}
      />
      {query.trim() !== '' && (
        <OptionList
          className="option-list"
          aria-label={t('offerEditor.countries.results', { label })}
          empty={t('offerEditor.noMatches')}
          type="checkbox"
          options={matches.map((c) => ({ value: c.iso, main: c.name, sub: c.iso, checked: value.includes(c.iso) }))}
          onPick={toggle}
        />
      )}
      <FieldError field={field} error={error} />
    </div>
  );
}
