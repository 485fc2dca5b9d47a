import { type KeyboardEvent, useMemo, useState } from 'react';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { DEFAULT_PAYMENT_GROUP_ID } from '../../lib/shared/offer-rules.ts';
import type { EditorGroup, EditorMethod } from './types.ts';
import type { EditorContextValue } from './ui.tsx';

// The payment method picker's state: its tabs (the selectable groups and one for the others),
// the tab shown, the search, the methods listed, and the arrow keys between tabs.

export const OTHER = 'other';
const SEARCH_SHOWN = 50;

export interface MethodTab {
  key: string;
  name: string;
}

/** The methods to list: the search's matches over all methods, else the tab's methods. */
function listedMethods(
  groups: readonly EditorGroup[],
  methods: readonly EditorMethod[],
  query: string,
  tab: string,
): readonly EditorMethod[] {
  const q = foldForSearch(query);
  if (q) return methods.filter((m) => foldForSearch(m.name).includes(q) || m.slug.includes(q)).slice(0, SEARCH_SHOWN);
  const selectable = new Set(groups.filter((g) => g.isSelectable).map((g) => g.id));
  if (tab === OTHER) return methods.filter((m) => !selectable.has(m.groupId));
  return methods.filter((m) => String(m.groupId) === tab);
}

export function useMethodPicker(
  t: EditorContextValue['t'],
  groups: readonly EditorGroup[],
  methods: readonly EditorMethod[],
  selected: EditorMethod | undefined,
  tabId: (key: string) => string,
) {
  const tabs = useMemo<MethodTab[]>(
    () => [
      ...groups.filter((g) => g.isSelectable).map((g) => ({ key: String(g.id), name: g.name })),
      { key: OTHER, name: t('offerEditor.method.otherGroups') },
    ],
    [groups, t],
  );
  const [tab, setTab] = useState(() => {
    if (!selected) return String(DEFAULT_PAYMENT_GROUP_ID);
    return groups.find((g) => g.id === selected.groupId)?.isSelectable ? String(selected.groupId) : OTHER;
  });
  const [query, setQuery] = useState('');
  const shown = useMemo(() => listedMethods(groups, methods, query, tab), [methods, groups, query, tab]);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: tabs.length - 1 - index }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const rtl = document.documentElement.dir === 'rtl' && (event.key === 'ArrowRight' || event.key === 'ArrowLeft');
    const next = tabs[(index + (rtl ? -step : step) + tabs.length) % tabs.length];
    if (!next) return;
    setTab(next.key);
    document.getElementById(tabId(next.key))?.focus();
  };

  return { tabs, tab, setTab, query, setQuery, shown, onTabKey, searching: foldForSearch(query) !== '' };
}
