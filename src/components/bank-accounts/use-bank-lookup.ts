import { useEffect, useRef, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { BankView, IbanLookupView, RoutingLookupView } from '../../lib/shared/views/bank-accounts.ts';
import type { CountryChoice } from './types.ts';

// The bank as the person types: a complete-looking IBAN asks GET /rest/v1/banks/by-iban, a
// nine-digit routing number GET /rest/v1/banks/by-routing-number, each 400 ms after the last key
// (older answers are dropped). Where no lookup names the bank, the country's banks
// (GET /rest/v1/banks?country_id=, fetched once per country) are offered to choose from.

export const LOOKUP_DELAY_MS = 400;

/** A lookup's outcome for one typed value: the bank it names (or null), or the field's message. */
export type Lookup =
  | { value: string; status: 'loading' }
  | { value: string; status: 'done'; bank: BankView | null }
  | { value: string; status: 'refused'; message: string };

export const compact = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

/** The lookup's refusal of what is typed now, or undefined: an older one would mislead. */
export const refusalOf = (lookup: Lookup | null | undefined, typed: string) =>
  lookup?.status === 'refused' && lookup.value === compact(typed) ? lookup.message : undefined;

function useDebouncedLookup(value: string | null, ask: (value: string, signal: AbortSignal) => Promise<Lookup>) {
  const [lookup, setLookup] = useState<Lookup | null>(null);
  const askRef = useRef(ask);
  askRef.current = ask;
  useEffect(() => {
    if (value === null) {
      setLookup(null);
      return;
    }
    setLookup({ value, status: 'loading' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void askRef.current(value, controller.signal).then((answer) => {
        if (!controller.signal.aborted) setLookup(answer);
      });
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value]);
  return lookup;
}

async function askIban(iban: string, signal: AbortSignal): Promise<Lookup> {
  const answer = await apiGet<IbanLookupView>(`/rest/v1/banks/by-iban?iban=${encodeURIComponent(iban)}`, { signal });
  if (answer.ok && answer.data) return { value: iban, status: 'done', bank: answer.data.bank };
  return { value: iban, status: 'refused', message: fieldMessage(answer.errors) };
}

async function askRouting(routing: string, signal: AbortSignal): Promise<Lookup> {
  const answer = await apiGet<RoutingLookupView>(
    `/rest/v1/banks/by-routing-number?routing_number=${encodeURIComponent(routing)}`,
    { signal },
  );
  if (answer.ok && answer.data) return { value: routing, status: 'done', bank: answer.data.bank };
  return { value: routing, status: 'refused', message: fieldMessage(answer.errors) };
}

const fieldMessage = (errors: { message: string; details?: { message: string }[] }[]) =>
  errors[0]?.details?.[0]?.message || errors[0]?.message || '';

/** The country's banks once it needs a choice; [] for a country the directory has none of. */
function useCountryBanks(countryId: number, needed: boolean) {
  const [banks, setBanks] = useState<Record<number, BankView[]>>({});
  const known = banks[countryId];
  useEffect(() => {
    if (!needed || known) return;
    const controller = new AbortController();
    void apiGet<BankView[]>(`/rest/v1/banks?country_id=${countryId}`, { signal: controller.signal }).then((answer) => {
      if (answer.ok && answer.data) setBanks((all) => ({ ...all, [countryId]: answer.data ?? [] }));
    });
    return () => controller.abort();
  }, [countryId, needed, known]);
  return known ?? [];
}

export function useBankLookup(country: CountryChoice | undefined, iban: string, routingNumber: string) {
  const kind = country?.kind;
  const typedIban = compact(iban);
  const ibanComplete = kind === 'iban' && typedIban.length >= (country?.ibanLength ?? 15);
  const ibanLookup = useDebouncedLookup(ibanComplete ? typedIban : null, askIban);
  const typedRouting = compact(routingNumber);
  const routingLookup = useDebouncedLookup(
    kind === 'aba' && /^\d{9}$/.test(typedRouting) ? typedRouting : null,
    askRouting,
  );
  const lookup = kind === 'iban' ? ibanLookup : kind === 'aba' ? routingLookup : null;
  const namedBank = lookup?.status === 'done' ? lookup.bank : null;
  // IBAN and US accounts choose a bank only once a lookup answered without naming one.
  const choosing = kind === 'swift' || (lookup?.status === 'done' && lookup.bank === null);
  const banks = useCountryBanks(country?.id ?? 0, Boolean(country) && choosing);
  return {
    ibanLookup,
    routingLookup,
    namedBank,
    searching: lookup?.status === 'loading',
    /** The banks to choose from, when the bank is the person's choice and the directory has some. */
    bankChoices: choosing ? banks : [],
    /** A US account's bank must be named one way or the other. */
    bankRequired: kind === 'aba' && choosing,
  };
}

export type BankLookup = ReturnType<typeof useBankLookup>;
