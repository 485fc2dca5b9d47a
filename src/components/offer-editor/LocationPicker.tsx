import { useState } from 'react';
import { fieldId } from './form.ts';
import type { EditorLocation } from './types.ts';
import { controlAria, FieldError, useEditor } from './ui.tsx';
import { searchStatus, useLocationSearch } from './use-location-search.ts';

// Where a cash-in-person trade meets: GET /location/search once the text is longer than 2
// characters and the typing has paused for 500 ms (spec sections 5 and 9).

export function LocationPicker({
  value,
  onChange,
  error,
}: {
  value: EditorLocation | null;
  onChange: (place: EditorLocation) => void;
  error: string | undefined;
}) {
  const { t, locale } = useEditor();
  const [query, setQuery] = useState('');
  const search = useLocationSearch(query, locale);
  const id = fieldId('location_id');

  return (
    <div className="field picker">
      <label htmlFor={id}>{t('offerEditor.location.label')}</label>
      <p className="picked" id={`${id}-hint`}>
        {value ? <strong>{value.prettyName}</strong> : t('offerEditor.location.hint')}
      </p>
      <input
        {...controlAria('location_id', error, true)}
        className="input"
        type="search"
        value={query}
        placeholder={t('offerEditor.location.search')}
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
      />
      <p className="field-hint" role="status">
        {searchStatus(t, search)}
      </p>
      {search.state === 'done' && search.places.length > 0 && (
        <fieldset className="option-list" aria-label={t('offerEditor.location.results')}>
          {search.places.map((place) => (
            <label key={place.id} className="option">
              <input
                type="radio"
                name="location_id"
                value={place.id}
                checked={value?.id === place.id}
                onChange={() => onChange({ id: place.id, prettyName: place.prettyName })}
              />
              <span className="option-main">{place.prettyName}</span>
            </label>
          ))}
        </fieldset>
      )}
      <FieldError field="location_id" error={error} />
    </div>
  );
}
