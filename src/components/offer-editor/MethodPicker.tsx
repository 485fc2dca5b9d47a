import type { KeyboardEvent } from 'react';
import { fieldId } from './form.ts';
import { OptionList, Picked, SearchBox } from './options.tsx';
import type { EditorGroup, EditorMethod } from './types.ts';
import { type EditorContextValue, FieldError, useEditor } from './ui.tsx';
import { type MethodTab, OTHER, useMethodPicker } from './use-method-picker.ts';

// The payment method, picked by group: tabs for the selectable groups of spec section 9 (gift
// cards, id 5, open first) and one more tab for the remaining groups (cash in person, goods and
// services), so every method stays reachable. Typing searches all methods at once.

type T = EditorContextValue['t'];

function GroupTabs({
  t,
  tabs,
  tab,
  tabId,
  panelId,
  onTab,
  onTabKey,
}: {
  t: T;
  tabs: MethodTab[];
  tab: string;
  tabId: (key: string) => string;
  panelId: string;
  onTab: (key: string) => void;
  onTabKey: (event: KeyboardEvent<HTMLButtonElement>, index: number) => void;
}) {
  return (
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
          onClick={() => onTab(item.key)}
          onKeyDown={(e) => onTabKey(e, i)}
        >
          {item.name}
        </button>
      ))}
    </div>
  );
}

/** The methods listed, as radios; their group shows where the list mixes groups. */
function MethodOptions({
  t,
  shown,
  value,
  showGroup,
  groupName,
  onChange,
  ...panel
}: {
  t: T;
  shown: readonly EditorMethod[];
  value: string;
  showGroup: boolean;
  groupName: (id: number) => string | undefined;
  onChange: (slug: string) => void;
  id: string;
  role?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}) {
  return (
    <OptionList
      className="option-list methods"
      {...panel}
      empty={t('offerEditor.noMatches')}
      type="radio"
      name="payment_method"
      options={shown.map((m) => ({
        value: m.slug,
        main: m.name,
        sub: showGroup ? groupName(m.groupId) : null,
        checked: value === m.slug,
      }))}
      onPick={(slug) => onChange(slug)}
    />
  );
}

function MethodNote({ method }: { method: EditorMethod }) {
  return (
    <div className="method-note">
      <p className="muted">{method.description}</p>
      {method.warningText && (
        <p className="alert alert-warning" role="note">
          {method.warningText}
        </p>
      )}
    </div>
  );
}

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
  const groupName = (id: number) => groups.find((g) => g.id === id)?.name;
  const id = fieldId('payment_method');
  const tabId = (key: string) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;
  const picker = useMethodPicker(t, groups, methods, selected, tabId);
  const { tab, searching } = picker;

  return (
    <div className="field picker">
      <label htmlFor={id}>{t('offerEditor.method.label')}</label>
      <Picked
        id={id}
        picked={selected && [selected.name, groupName(selected.groupId)]}
        none={t('offerEditor.method.none')}
      />
      <SearchBox
        field="payment_method"
        error={error}
        value={picker.query}
        placeholder={t('offerEditor.method.search')}
        onChange={picker.setQuery}
      />
      {!searching && (
        <GroupTabs
          t={t}
          tabs={picker.tabs}
          tab={tab}
          tabId={tabId}
          panelId={panelId}
          onTab={picker.setTab}
          onTabKey={picker.onTabKey}
        />
      )}
      <MethodOptions
        t={t}
        shown={picker.shown}
        value={value}
        showGroup={searching || tab === OTHER}
        groupName={groupName}
        onChange={onChange}
        id={panelId}
        {...(searching
          ? { 'aria-label': t('offerEditor.method.results') }
          : { role: 'tabpanel', 'aria-labelledby': tabId(tab) })}
      />
      {selected && <MethodNote method={selected} />}
      <FieldError field="payment_method" error={error} />
    </div>
  );
}
