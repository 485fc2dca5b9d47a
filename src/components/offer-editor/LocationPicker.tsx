import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { fieldId } from './form.ts';
import type { EditorLocation } from './types.ts';
import { controlAria, FieldError, localized, useEditor } from './ui.tsx';

// Where a cash-in-person trade meets: GET /location/search once the text is longer than 2
// characters and the typing has paused for 500 ms (spec sections 5 and 9).

const MIN_CHARS = 3;
const DEBOUNCE_MS = 500;

type Search =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; places: EditorLocation[] }
  | { state: 'error' };

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
  const [search, setSearch] = useState<Search>({ state: 'idle' });

  useEffect(() => {
    const text = query.trim();
    if (text.length < MIN_CHARS) {
      setSearch({ state: 'idle' });
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      setSearch({ state: 'loading' });
      const result = await apiGet<EditorLocation[]>(
        localized(`/location/search?q=${encodeURIComponent(text)}`, locale),
        {
          signal: abort.signal,
        },
      );
      if (abort.signal.aborted) return;
      setSearch(result.ok && result.data ? { state: 'done', places: result.data } : { state: 'error' });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query, locale]);

  const id = fieldId('location_id');
  const status =
    search.state === 'loading'
      ? t('offerEditor.location.searching')
      : search.state === 'error'
        ? t('offerEditor.location.failed')
        : search.state === 'done' && search.places.length === 0
          ? t('offerEditor.noMatches')
          : '';

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
        {status}
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
