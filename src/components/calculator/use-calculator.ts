import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { createCalculator } from '../../stores/calculator.ts';
import type { Amounts } from './convert.ts';
import type { CalculatorState, CurrencyEntry } from './types.ts';

// The calculator island's store, created once with what the server rendered, and its view.

export interface CalculatorProps {
  locale: Locale;
  lang: string;
  messages: IslandMessages;
  siteName: string;
  currencies: CurrencyEntry[];
  popular: string[];
  initial: CalculatorState;
  amounts: Amounts;
  pickerQuery: string;
  /** Unix seconds of the server's price. */
  updatedAt: number;
}

/** Hydration reads the store's first value, the server's, whatever its mount changed since. */
const HYDRATE = { ssr: 'initial' } as const;

export function useCalculator(props: CalculatorProps) {
  const [{ t, calc, popularRows }] = useState(() => {
    const t = islandTranslator(props.messages);
    const calc = createCalculator({
      ...props,
      title: (code) => `${t('calculator.title', { code })} · ${props.siteName}`,
    });
    const popularRows = props.popular.flatMap((c) => calc.list.filter((entry) => entry.code === c));
    return { t, calc, popularRows };
  });
  const view = useStore(calc.$view, HYDRATE);
  return { t, calc, popularRows, view };
}
