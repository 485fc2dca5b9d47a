import { useEffect, useMemo, useRef } from 'react';
import { searchCurrencies } from './convert.ts';

// The currency list's behaviour: the matches of the search, the popular entries, the search
// focused on opening, and a click or focus outside that closes the list.

interface PickerState {
  currencies: { code: string; name: string }[];
  popular: string[];
  query: string;
  open: boolean;
  onOpen: (open: boolean) => void;
}

/** A click or a focus outside closes the list, like a native select. */
function useCloseOutside(details: { current: HTMLElement | null }, open: boolean, onOpen: (open: boolean) => void) {
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (details.current && !details.current.contains(event.target as Node)) onOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [details, open, onOpen]);
}

export function useCurrencyPicker({ currencies, popular, query, open, onOpen }: PickerState) {
  const details = useRef<HTMLDetailsElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => searchCurrencies(currencies, query), [currencies, query]);
  const popularList = useMemo(
    () => popular.flatMap((c) => currencies.filter((entry) => entry.code === c)),
    [currencies, popular],
  );

  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  useCloseOutside(details, open, onOpen);
  return { details, search, matches, popularList };
}
