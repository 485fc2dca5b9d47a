import { useCallback, useRef, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import { type CountryChoice, countryChoiceCookie, WORLDWIDE } from '../../lib/listing-country.ts';
import type { CountryView } from '../../lib/shared/views/reference.ts';
import type { ListingCountry, ListingProps } from './listing-types.ts';

// The listing's country (issue 19): shown from the first render, changeable to any country or to
// worldwide. The list of countries is asked only when the person opens the picker; a pick is
// remembered in the `listing_country` cookie so the next page rendered on the server agrees.

/** Spec section 9: the countries request is limit 500, offset 0. */
const COUNTRIES_PATH = '/rest/v1/countries?limit=500&offset=0';

export function useListingCountry(
  props: Pick<ListingProps, 'country' | 'countryChoice' | 'popularMethods' | 'locale'>,
) {
  const [country, setCountry] = useState<ListingCountry | null>(props.country);
  const [choice, setChoice] = useState<CountryChoice | undefined>(props.countryChoice);
  const [popular, setPopular] = useState<string[]>(props.popularMethods);
  const [countries, setCountries] = useState<CountryView[] | undefined>(undefined);
  const asked = useRef<Promise<CountryView[] | undefined> | undefined>(undefined);

  /** The whole list, asked once; undefined while it cannot be had (the picker keeps what it shows). */
  const loadCountries = useCallback(() => {
    asked.current ??= apiRequest<CountryView[]>('GET', `${COUNTRIES_PATH}&locale=${props.locale}`).then((result) => {
      if (!result.ok) {
        asked.current = undefined;
        return undefined;
      }
      setCountries(result.data);
      return result.data;
    });
    return asked.current;
  }, [props.locale]);

  /** Picks a country (or worldwide): remembered, shown, and its popular methods offered. */
  const choose = useCallback(
    async (next: CountryChoice) => {
      // biome-ignore lint/suspicious/noDocumentCookie: a first-party preference the server-rendered listing reads; the Cookie Store API is not in every browser yet
      document.cookie = countryChoiceCookie(next, location.protocol === 'https:');
      setChoice(next);
      if (next === WORLDWIDE) {
        setCountry(null);
        setPopular([]);
        return;
      }
      const found = (countries ?? (await loadCountries()))?.find((c) => c.iso === next);
      setCountry({ iso: next, name: found?.name ?? next });
      setPopular(found?.popularPaymentMethods.map((m) => m.slug) ?? []);
    },
    [countries, loadCountries],
  );

  return { country, choice, popular, countries, loadCountries, choose };
}

export type ListingCountryState = ReturnType<typeof useListingCountry>;
