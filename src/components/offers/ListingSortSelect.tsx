import { useId } from 'react';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { DEFAULT_LISTING_SORT, isListingSort, LISTING_SORTS, type ListingSort } from '../../lib/shared/listing-sort.ts';

// The listing's order (decision 133): a labelled select, the same at 375 px and 1440 px. It belongs
// to the filters' form, so without JavaScript the search button sends it too; with it, a choice
// reloads the list at once.

export const LISTING_FORM_ID = 'listing-filters';

interface Props {
  t: ReturnType<typeof islandTranslator>;
  sort: ListingSort | undefined;
  onSort(sort: ListingSort | undefined): void;
}

export function ListingSortSelect({ t, sort, onSort }: Props) {
  const id = useId();
  return (
    <div className="listing-sort">
      <label htmlFor={id}>{t('listing.sort.label')}</label>
      <select
        id={id}
        className="input listing-sort-select"
        name="sort"
        form={LISTING_FORM_ID}
        value={sort ?? DEFAULT_LISTING_SORT}
        onChange={(event) => {
          const next = event.target.value;
          if (isListingSort(next)) onSort(next === DEFAULT_LISTING_SORT ? undefined : next);
        }}
      >
        {LISTING_SORTS.map((option) => (
          <option key={option} value={option}>
            {t(`listing.sort.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
