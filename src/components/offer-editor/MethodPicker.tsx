import { type KeyboardEvent, useMemo, useState } from 'react';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import { DEFAULT_PAYMENT_GROUP_ID } from '../../lib/shared/offer-rules.ts';
import { fieldId } from './form.ts';
import type { EditorGroup, EditorMethod } from './types.ts';
import { controlAria, FieldError, useEditor } from './ui.tsx';

// The payment method, picked by group: tabs for the selectable groups of spec section 9 (gift
// cards, id 5, open first) and one more tab for the remaining groups (cash in person, goods and
// services), so every method stays reachable. Typing searches all methods at once.

const OTHER = 'other';
const SEARCH_SHOWN = 50;

export function MethodPicker({
  groups,
  methods,
  value,
  onChange,
  error,
}: {
  groups: readonly EditorGroup[];
  methods: readonly EditorMethod[];
  value: string;
  onChange: (slug: string) => void;
  error: string | undefined;
}) {
  const { t } = useEditor();
  const selected = methods.find((m) => m.slug === value);
  const groupOf = (id: number) => groups.find((g) => g.id === id);
  const tabs = useMemo(
    () => [
      ...groups.filter((g) => g.isSelectable).map((g) => ({ key: String(g.id), name: g.name })),
      { key: OTHER, name: t('offerEditor.method.otherGroups') },
    ],
    [groups, t],
  );
  const tabOf = (method: EditorMethod | undefined) => {
    if (!method) return String(DEFAULT_PAYMENT_GROUP_ID);
    return groupOf(method.groupId)?.isSelectable ? String(method.groupId) : OTHER;
  };
  const [tab, setTab] = useState(() => tabOf(selected));
  const [query, setQuery] = useState('');

  const shown = useMemo(() => {
    const q = foldForSearch(query);
    if (q) return methods.filter((m) => foldForSearch(m.name).includes(q) || m.slug.includes(q)).slice(0, SEARCH_SHOWN);
    const selectable = new Set(groups.filter((g) => g.isSelectable).map((g) => g.id));
    if (tab === OTHER) return methods.filter((m) => !selectable.has(m.groupId));
    return methods.filter((m) => String(m.groupId) === tab);
  }, [methods, groups, query, tab]);

  const id = fieldId('payment_method');
  const tabId = (key: string) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;
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

  const searching = foldForSearch(query) !== '';
  return (
    <div className="field picker">
      <label htmlFor={id}>{t('offerEditor.method.label')}</label>
      <p className="picked" id={`${id}-hint`}>
        {selected ? (
          <>
            <strong>{selected.name}</strong> · {groupOf(selected.groupId)?.name}
          </>
        ) : (
          t('offerEditor.method.none')
        )}
      </p>
      <input
        {...controlAria('payment_method', error, true)}
        className="input"
        type="search"
        value={query}
        placeholder={t('offerEditor.method.search')}
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
      />
      {!searching && (
        <div className="tabs-row" role="tablist" aria-label={t('offerEditor.method.groups')}>
          {tabs.map((item, i) => (
            <button
              key={item.key}
              type="button"
              role="tab"
              id={tabId(item.key)}
              className="tab-btn"
              aria-selected={tab === item.key}
              aria-controls={panelId}
              tabIndex={tab === item.key ? 0 : -1}
              onClick={() => setTab(item.key)}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {item.name}
            </button>
          ))}
        </div>
      )}
      <fieldset
        className="option-list methods"
        id={panelId}
        {...(searching
          ? { 'aria-label': t('offerEditor.method.results') }
          : { role: 'tabpanel', 'aria-labelledby': tabId(tab) })}
      >
        {shown.length === 0 && <p className="muted empty">{t('offerEditor.noMatches')}</p>}
        {shown.map((m) => (
          <label key={m.slug} className="option">
            <input
              type="radio"
              name="payment_method"
              value={m.slug}
              checked={value === m.slug}
              onChange={() => onChange(m.slug)}
            />
            <span className="option-main">{m.name}</span>
            {(searching || tab === OTHER) && <span className="option-sub">{groupOf(m.groupId)?.name}</span>}
          </label>
        ))}
      </fieldset>
      {selected && (
        <div className="method-note">
          <p className="muted">{selected.description}</p>
          {selected.warningText && (
            <p className="alert alert-warning" role="note">
              {selected.warningText}
            </p>
          )}
        </div>
      )}
      <FieldError field="payment_method" error={error} />
    </div>
  );
}
