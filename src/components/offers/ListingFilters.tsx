import { useEffect, useId, useMemo, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import type { ListingQuery } from '../../lib/offer-listing-url.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { CASH_IN_PERSON_GROUP } from '../../lib/shared/offer-rules.ts';
import { CountryFilter } from './CountryFilter.tsx';
import { LISTING_FORM_ID } from './ListingSortSelect.tsx';
import type { ListingCurrency, ListingGroup } from './listing-types.ts';
import { MethodModal } from './MethodModal.tsx';
import type { ListingCountryState } from './use-listing-country.ts';

// The listing's search widget (spec section 5: amount, currency (any) and payment method), the
// payment method modal with its groups and search, the popular methods of the person's country,
// and a place search for cash in person (more than 2 characters, after a 500 ms pause).
// Field names match the page's GET fallback: `fiat-min`, `currency`, `payment-method`, `group`.

type T = ReturnType<typeof islandTranslator>;

interface Props {
  t: T;
  query: ListingQuery;
  amount: string;
  onAmount(text: string): void;
  onChange(patch: Partial<ListingQuery>): void;
  onPlace(locationId: number | undefined): void;
  currencies: ListingCurrency[];
  groups: ListingGroup[];
  /** The listing's country, its popular methods and the picker's list (issue 19). */
  country: ListingCountryState;
  onCountry(choice: string): void;
  /** The currency a localized listing shows when the address names none (its country's). */
  localCurrency: string | null;
}

type MethodInfo = ListingGroup['methods'][number] & { group: string };

/** The methods by slug (with their group), the one chosen, and the popular ones that exist. */
function useFilterMethods(props: Props) {
  const { query, groups } = props;
  const methods = useMemo(
    () => new Map(groups.flatMap((g) => g.methods.map((m) => [m.slug, { ...m, group: g.slug }]))),
    [groups],
  );
  const method = query.paymentMethod ? methods.get(query.paymentMethod) : undefined;
  const cashInPerson = query.group === CASH_IN_PERSON_GROUP || method?.group === CASH_IN_PERSON_GROUP;
  const popular = props.country.popular.filter((slug) => methods.has(slug)).slice(0, 6);
  return { methods, method, cashInPerson, popular };
}

function AmountFilter({ t, id, amount, onAmount }: Pick<Props, 't' | 'amount' | 'onAmount'> & { id: string }) {
  return (
    <div className="field">
      <label htmlFor={`${id}-amount`}>{t('listing.filter.amount')}</label>
      <input
        id={`${id}-amount`}
        className="input"
        name="fiat-min"
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('listing.filter.amountHint')}
        value={amount}
        onChange={(e) => onAmount(e.target.value)}
      />
    </div>
  );
}

function CurrencyFilter({
  t,
  id,
  query,
  currencies,
  onChange,
  localCurrency,
}: Pick<Props, 't' | 'query' | 'currencies' | 'onChange' | 'localCurrency'> & { id: string }) {
  return (
    <div className="field">
      <label htmlFor={`${id}-currency`}>{t('listing.filter.currency')}</label>
      <select
        id={`${id}-currency`}
        className="input"
        name="currency"
        value={query.currency ?? ''}
        onChange={(e) => onChange({ currency: e.target.value || undefined })}
      >
        <option value="">
          {localCurrency
            ? t('listing.filter.countryCurrency', { code: localCurrency })
            : t('listing.filter.anyCurrency')}
        </option>
        {currencies.map((c) => (
          <option key={c.code} value={c.code}>
            {c.code} · {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Without JavaScript the select is the picker; with it, the modal button replaces it. */
function MethodFilter({
  t,
  id,
  query,
  groups,
  method,
  onChoose,
}: Pick<Props, 't' | 'query' | 'groups'> & { id: string; method: MethodInfo | undefined; onChoose(): void }) {
  return (
    <div className="field">
      <span className="field-label" id={`${id}-method-label`}>
        {t('listing.filter.method')}
      </span>
      <select
        className="input nojs-only"
        name="payment-method"
        defaultValue={query.paymentMethod ?? ''}
        aria-labelledby={`${id}-method-label`}
      >
        <option value="">{t('listing.filter.anyMethod')}</option>
        {groups.map((g) => (
          <optgroup key={g.slug} label={g.name}>
            {g.methods.map((m) => (
              <option key={m.slug} value={m.slug}>
                {m.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <button
        type="button"
        className="input listing-method-button js-only"
        aria-labelledby={`${id}-method-label ${id}-method-value`}
        aria-haspopup="dialog"
        onClick={onChoose}
      >
        <span id={`${id}-method-value`}>
          {method?.name ??
            (query.group
              ? (groups.find((g) => g.slug === query.group)?.name ?? query.group)
              : t('listing.filter.anyMethod'))}
        </span>
      </button>
    </div>
  );
}

/** The popular methods of the listing's country: a press picks one, a second press drops it. */
function PopularMethods({
  t,
  query,
  popular,
  methods,
  onChange,
  country,
}: Pick<Props, 't' | 'query' | 'onChange' | 'country'> & { popular: string[]; methods: Map<string, MethodInfo> }) {
  const name = country.country?.name;
  return (
    <div className="listing-popular">
      <span className="muted">
        {name ? t('listing.filter.popularIn', { country: name }) : t('listing.filter.popular')}
      </span>
      {popular.map((slug) => (
        <button
          key={slug}
          type="button"
          className="chip"
          aria-pressed={query.paymentMethod === slug}
          onClick={() =>
            onChange(
              query.paymentMethod === slug ? { paymentMethod: undefined } : { paymentMethod: slug, group: undefined },
            )
          }
        >
          {methods.get(slug)?.name ?? slug}
        </button>
      ))}
    </div>
  );
}

export function ListingFilters(props: Props) {
  const { t, query, groups } = props;
  const id = useId();
  const [choosing, setChoosing] = useState(false);
  const { methods, method, cashInPerson, popular } = useFilterMethods(props);

  return (
    <form
      id={LISTING_FORM_ID}
      className="listing-filters card"
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        props.onChange({ fiatMin: props.amount || undefined });
      }}
    >
      <AmountFilter {...props} id={id} />
      <CurrencyFilter {...props} id={id} />
      <MethodFilter {...props} id={id} method={method} onChoose={() => setChoosing(true)} />
      <button type="submit" className="btn btn-primary listing-search">
        {t('listing.filter.search')}
      </button>

      <div className="listing-where">
        <CountryFilter t={t} state={props.country} onChoose={props.onCountry} />
        {popular.length > 0 && <PopularMethods {...props} popular={popular} methods={methods} />}
      </div>

      {cashInPerson && <PlaceSearch t={t} onPlace={props.onPlace} />}

      {choosing && (
        <MethodModal
          t={t}
          groups={groups}
          selected={query.paymentMethod}
          selectedGroup={query.group}
          onClose={() => setChoosing(false)}
          onPick={(patch) => {
            setChoosing(false);
            props.onChange(patch);
          }}
        />
      )}
    </form>
  );
}

interface Place {
  id: number;
  prettyName: string;
}

/** Places for cash in person: asks once the text is longer than 2 characters and has rested 500 ms. */
function PlaceSearch({ t, onPlace }: { t: T; onPlace(id: number | undefined): void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [places, setPlaces] = useState<Place[]>([]);
  const [chosen, setChosen] = useState<Place | undefined>();
  useEffect(() => {
    if (text.trim().length <= 2 || chosen?.prettyName === text) {
      setPlaces([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const result = await apiRequest<Place[]>(
        'GET',
        `/location/search?q=${encodeURIComponent(text.trim())}`,
        undefined,
        {
          signal: controller.signal,
        },
      );
      if (result.ok) setPlaces(result.data ?? []);
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, chosen]);
  return (
    <div className="field listing-place">
      <label htmlFor={`${id}-place`}>{t('listing.filter.place')}</label>
      <input
        id={`${id}-place`}
        className="input"
        type="search"
        autoComplete="off"
        placeholder={t('listing.filter.placeHint')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (chosen) {
            setChosen(undefined);
            onPlace(undefined);
          }
        }}
        aria-controls={`${id}-places`}
      />
      {places.length > 0 && (
        <ul id={`${id}-places`} className="place-list">
          {places.map((place) => (
            <li key={place.id}>
              <button
                type="button"
                className="method-option"
                onClick={() => {
                  setChosen(place);
                  setText(place.prettyName);
                  setPlaces([]);
                  onPlace(place.id);
                }}
              >
                {place.prettyName}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
