import { useCallback, useMemo, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import {
  type NotificationItem,
  type NotificationsPage,
  type NotificationTab,
  PAGE_SIZE,
  pageHref,
  type UnreadCounts,
} from './types.ts';

// The notifications table (spec section 2): tabs inbox and moderators, paging, mark all read in
// the tab shown (spec section 4). The first page comes rendered from the server; tabs and pages
// are links, so the table works without JavaScript, and with it they load in place.

interface Props {
  locale: string;
  lang: string;
  /** The page's path without query (`/de/notifications`). */
  base: string;
  messages: IslandMessages;
  initial: NotificationsPage;
  /** For the mark-all form when it posts without JavaScript. */
  csrf: string;
}

const TABS: NotificationTab[] = ['inbox', 'moderators'];

export default function NotificationsApp({ locale, lang, base, messages, initial, csrf }: Props) {
  const t = useMemo(() => islandTranslator(messages), [messages]);
  const [view, setView] = useState<NotificationsPage>(initial);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const announce = (unread: UnreadCounts) =>
    dispatchEvent(new CustomEvent('notifications:count', { detail: { count: unread.total } }));

  const load = useCallback(
    async (tab: NotificationTab, page: number) => {
      setBusy(true);
      const result = await apiGet<NotificationItem[]>(
        `/rest/v1/notifications?name=${tab}&limit=${PAGE_SIZE}&offset=${(page - 1) * PAGE_SIZE}&locale=${locale}`,
      );
      setBusy(false);
      setFailed(!result.ok);
      if (!result.ok || !result.data) return;
      const unread = result.meta?.unread as UnreadCounts;
      setView({ tab, page, items: result.data, nextPageExist: Boolean(result.meta?.nextPageExist), unread });
      history.replaceState(null, '', pageHref(base, tab, page));
    },
    [locale, base],
  );

  const go = (tab: NotificationTab, page: number) => (event: React.MouseEvent) => {
    event.preventDefault();
    void load(tab, page);
  };

  const markAll = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await apiPost<unknown>('/rest/v1/notifications/all', { name: view.tab });
    setBusy(false);
    setFailed(!result.ok);
    if (!result.ok) return;
    announce(result.meta?.unread as UnreadCounts);
    await load(view.tab, view.page);
  };

  const open = (item: NotificationItem) => () => {
    // Read once opened; the navigation does not wait for it.
    if (!item.isRead) void apiPost('/rest/v1/notifications', { ids: [item.id] });
  };

  const date = (seconds: number) =>
    new Date(seconds * 1000).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <div className="ntf-app" aria-busy={busy}>
      <div className="ntf-bar">
        <div className="ntf-tabs" role="tablist" aria-label={t('notifications.tabs')}>
          {TABS.map((tab) => (
            <a
              key={tab}
              role="tab"
              aria-selected={view.tab === tab}
              className="ntf-tab"
              href={pageHref(base, tab, 1)}
              onClick={go(tab, 1)}
              data-tab={tab}
            >
              {t(`notifications.tab.${tab}`)}
              {view.unread[tab] > 0 && <span className="ntf-count">{view.unread[tab]}</span>}
            </a>
          ))}
        </div>
        <form method="post" onSubmit={markAll}>
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="tab" value={view.tab} />
          <button type="submit" className="btn btn-ghost" disabled={busy || view.unread[view.tab] === 0} data-mark-all>
            {t('notifications.markAll')}
          </button>
        </form>
      </div>
      {failed && (
        <p className="ntf-error" role="alert">
          {t('notifications.loadError')}
        </p>
      )}
      {view.items.length === 0 ? (
        <p className="ntf-empty" data-empty>
          {t('notifications.empty')}
        </p>
      ) : (
        <ul className="ntf-list">
          {view.items.map((item) => (
            <li
              key={item.id}
              className={item.isRead ? 'ntf-row' : 'ntf-row unread'}
              data-id={item.id}
              data-type={item.type}
            >
              <a href={item.link} onClick={open(item)}>
                {!item.isRead && <span className="visually-hidden">{t('notifications.unread')}: </span>}
                <strong>{item.message}</strong>
                {item.subtext && <span className="ntf-sub">{item.subtext}</span>}
              </a>
              <time dateTime={new Date(item.updatedAt * 1000).toISOString()}>{date(item.updatedAt)}</time>
            </li>
          ))}
        </ul>
      )}
      <nav className="ntf-pages" aria-label={t('notifications.page', { page: view.page })}>
        {view.page > 1 && (
          <a href={pageHref(base, view.tab, view.page - 1)} onClick={go(view.tab, view.page - 1)} rel="prev">
            {t('notifications.previous')}
          </a>
        )}
        <span>{t('notifications.page', { page: view.page })}</span>
        {view.nextPageExist && (
          <a href={pageHref(base, view.tab, view.page + 1)} onClick={go(view.tab, view.page + 1)} rel="next" data-next>
            {t('notifications.next')}
          </a>
        )}
      </nav>
    </div>
  );
}
