import { type MouseEvent, type SubmitEvent, useCallback, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import {
  type NotificationItem,
  type NotificationsPage,
  type NotificationTab,
  PAGE_SIZE,
  pageHref,
  type UnreadCounts,
} from './types.ts';

// The notifications table's state: the page shown, busy, failed; loading a tab's page in place
// (and its address in the history), mark all read, and marking one read when it is opened.

/** The bell in the header hears the new unread count. */
const announce = (unread: UnreadCounts) =>
  dispatchEvent(new CustomEvent('notifications:count', { detail: { count: unread.total } }));

export function useNotifications({
  locale,
  base,
  initial,
}: {
  locale: string;
  base: string;
  initial: NotificationsPage;
}) {
  const [view, setView] = useState<NotificationsPage>(initial);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

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

  /** A tab's or page's link, loaded in place. */
  const go = (tab: NotificationTab, page: number) => (event: MouseEvent) => {
    event.preventDefault();
    void load(tab, page);
  };

  const markAll = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await apiPost<unknown>('/rest/v1/notifications/all', { name: view.tab });
    setBusy(false);
    setFailed(!result.ok);
    if (!result.ok) return;
    announce(result.meta?.unread as UnreadCounts);
    await load(view.tab, view.page);
  };

  return { view, busy, failed, go, markAll };
}

/** Read once opened; the navigation does not wait for it. */
export const openNotification = (item: NotificationItem) => () => {
  if (!item.isRead) void apiPost('/rest/v1/notifications', { ids: [item.id] });
};

export type Go = ReturnType<typeof useNotifications>['go'];
