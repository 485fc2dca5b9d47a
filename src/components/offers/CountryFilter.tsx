import { useId } from 'react';
import { WORLDWIDE } from '../../lib/listing-country.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { ListingCountryState } from './use-listing-country.ts';

// The listing's country picker (spec section 2, "Popular country payment methods"; issue 19).
// Before the list arrives it holds the current country and "worldwide", so the first render
// needs nothing more; focusing or pressing it asks for the whole list. Without JavaScript it is
// a plain `country` field of the filters' GET form, which the page remembers and redirects.

type T = ReturnType<typeof islandTranslator>;

export function CountryFilter({
  t,
  state,
  onChoose,
}: {
  t: T;
  state: ListingCountryState;
  onChoose(choice: string): void;
}) {
  const id = useId();
  const { country, countries } = state;
  const options = countries ?? (country ? [{ iso: country.iso, name: country.name }] : []);
  const ask = () => void state.loadCountries();
  return (
    <div className="listing-country">
      <label htmlFor={`${id}-country`} className="muted">
        {t('listing.filter.country')}
      </label>
      <select
        id={`${id}-country`}
        className="input listing-country-select"
        name="country"
        value={country?.iso ?? WORLDWIDE}
        onFocus={ask}
        onPointerDown={ask}
        onChange={(e) => onChoose(e.target.value)}
      >
        <option value={WORLDWIDE}>{t('listing.filter.worldwide')}</option>
        {options.map((c) => (
          <option key={c.iso} value={c.iso}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
