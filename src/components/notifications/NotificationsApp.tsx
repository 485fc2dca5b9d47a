import { type SubmitEvent, useMemo } from 'react';
import { isolatedText } from '../../lib/isolated.tsx';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { type NotificationItem, type NotificationsPage, type NotificationTab, pageHref } from './types.ts';
import { type Go, openNotification, useNotifications } from './use-notifications.ts';

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

type T = ReturnType<typeof islandTranslator>;

export default function NotificationsApp({ locale, lang, base, messages, initial, csrf }: Props) {
  const t = useMemo(() => islandTranslator(messages), [messages]);
  const { view, busy, failed, go, markAll } = useNotifications({ locale, base, initial });
  const browseHref = localizePath(locale as Locale, '/buy-bitcoin');
  return (
    <div className="ntf-app" aria-busy={busy}>
      <div className="ntf-bar">
        <NotificationTabs t={t} base={base} view={view} go={go} />
        <MarkAllForm t={t} csrf={csrf} view={view} busy={busy} onSubmit={markAll} />
      </div>
      {failed && (
        <p className="ntf-error" role="alert">
          {t('notifications.loadError')}
        </p>
      )}
      {view.items.length === 0 ? (
        <div className="ntf-empty empty-state" data-empty>
          <p>{t('notifications.empty')}</p>
          <a className="text-link" href={browseHref}>
            {t('notifications.emptyBrowse')}
          </a>
        </div>
      ) : (
        <NotificationList t={t} lang={lang} items={view.items} />
      )}
      <NotificationPages t={t} base={base} view={view} go={go} />
    </div>
  );
}

interface Part {
  t: T;
  base: string;
  view: NotificationsPage;
  go: Go;
}

function NotificationTabs({ t, base, view, go }: Part) {
  return (
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
  );
}

/** Mark all read in the tab shown; it posts as a form without JavaScript. */
function MarkAllForm({
  t,
  csrf,
  view,
  busy,
  onSubmit,
}: {
  t: T;
  csrf: string;
  view: NotificationsPage;
  busy: boolean;
  onSubmit(event: SubmitEvent): Promise<void>;
}) {
  return (
    <form method="post" onSubmit={onSubmit}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="tab" value={view.tab} />
      <button type="submit" className="btn btn-ghost" disabled={busy || view.unread[view.tab] === 0} data-mark-all>
        {t('notifications.markAll')}
      </button>
    </form>
  );
}

function NotificationList({ t, lang, items }: { t: T; lang: string; items: NotificationItem[] }) {
  const date = (seconds: number) =>
    new Date(seconds * 1000).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ul className="ntf-list">
      {items.map((item) => (
        <li
          key={item.id}
          className={item.isRead ? 'ntf-row' : 'ntf-row unread'}
          data-id={item.id}
          data-type={item.type}
        >
          <a href={item.link} onClick={openNotification(item)}>
            {!item.isRead && <span className="visually-hidden">{t('notifications.unread')}: </span>}
            <strong>{isolatedText(item.message, item.messagePlaceholders ?? {})}</strong>
            {item.subtext && (
              <span className="ntf-sub">{isolatedText(item.subtext, item.subtextPlaceholders ?? {})}</span>
            )}
          </a>
          <time dateTime={new Date(item.updatedAt * 1000).toISOString()}>{date(item.updatedAt)}</time>
        </li>
      ))}
    </ul>
  );
}

function NotificationPages({ t, base, view, go }: Part) {
  return (
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
  );
}
