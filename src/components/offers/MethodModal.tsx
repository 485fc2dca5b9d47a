import { useId, useState } from 'react';
import type { ListingQuery } from '../../lib/offer-listing-url.ts';
import { foldForSearch } from '../../lib/shared/fold-for-search.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import type { ListingGroup } from './listing-types.ts';

// The listing's payment method modal: tabs for the selectable groups, a search over all
// methods, "any method" and "the whole group".

type T = ReturnType<typeof islandTranslator>;
type Method = ListingGroup['methods'][number];

interface Props {
  t: T;
  groups: ListingGroup[];
  selected: string | undefined;
  selectedGroup: string | undefined;
  onClose(): void;
  onPick(patch: Partial<ListingQuery>): void;
}

/** The tab shown, the search and what it finds (the tab's methods while nothing is typed). */
function useMethodSearch({ groups, selected, selectedGroup }: Props) {
  const selectable = groups.filter((g) => g.isSelectable);
  const [tab, setTab] = useState(
    selectedGroup ?? groups.find((g) => g.methods.some((m) => m.slug === selected))?.slug ?? selectable[0]?.slug ?? '',
  );
  const [search, setSearch] = useState('');
  const folded = foldForSearch(search.trim());
  const found = folded
    ? groups.flatMap((g) => g.methods.filter((m) => foldForSearch(m.name).includes(folded)))
    : (groups.find((g) => g.slug === tab)?.methods ?? []);
  return { selectable, tab, setTab, search, setSearch, folded, found };
}

function GroupTabs({
  t,
  groups,
  tab,
  onTab,
}: {
  t: T;
  groups: ListingGroup[];
  tab: string;
  onTab(slug: string): void;
}) {
  return (
    <div className="method-tabs" role="tablist" aria-label={t('listing.methods.groups')}>
      {groups.map((g) => (
        <button
          key={g.slug}
          type="button"
          role="tab"
          aria-selected={tab === g.slug}
          className="chip"
          onClick={() => onTab(g.slug)}
        >
          {g.name}
        </button>
      ))}
    </div>
  );
}

function MethodList({
  t,
  groups,
  selected,
  selectedGroup,
  onPick,
  tab,
  folded,
  found,
}: Omit<Props, 'onClose'> & { tab: string; folded: string; found: Method[] }) {
  return (
    <ul className="method-list">
      <li>
        <button
          type="button"
          className="method-option"
          onClick={() => onPick({ paymentMethod: undefined, group: undefined })}
        >
          {t('listing.filter.anyMethod')}
        </button>
      </li>
      {!folded && tab && (
        <li>
          <button
            type="button"
            className="method-option"
            aria-pressed={selectedGroup === tab && !selected}
            onClick={() => onPick({ paymentMethod: undefined, group: tab })}
          >
            {t('listing.methods.wholeGroup', { group: groups.find((g) => g.slug === tab)?.name ?? tab })}
          </button>
        </li>
      )}
      {found.map((m) => (
        <li key={m.slug}>
          <button
            type="button"
            className="method-option"
            aria-pressed={selected === m.slug}
            onClick={() => onPick({ paymentMethod: m.slug, group: undefined })}
          >
            {m.name}
          </button>
        </li>
      ))}
      {folded && found.length === 0 && <li className="muted">{t('listing.methods.none')}</li>}
    </ul>
  );
}

export function MethodModal(props: Props) {
  const { t, onClose } = props;
  const dialog = useModalDialog();
  const titleId = useId();
  const { selectable, tab, setTab, search, setSearch, folded, found } = useMethodSearch(props);

  return (
    <dialog
      ref={dialog}
      className="offer-modal method-modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="method-modal-head">
        <h2 id={titleId} className="h3">
          {t('listing.methods.title')}
        </h2>
        <button type="button" className="tour-close" onClick={onClose} aria-label={t('listing.close')}>
          ×
        </button>
      </div>
      <input
        className="input"
        type="search"
        placeholder={t('listing.methods.search')}
        aria-label={t('listing.methods.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        autoFocus
      />
      {!folded && <GroupTabs t={t} groups={selectable} tab={tab} onTab={setTab} />}
      <MethodList {...props} tab={tab} folded={folded} found={found} />
    </dialog>
  );
}
