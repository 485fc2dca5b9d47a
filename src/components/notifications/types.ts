// What the notifications page hands its island (src/pages/[...locale]/notifications.astro).

export type NotificationTab = 'inbox' | 'moderators';

/** The API's notification (spec section 3), as far as the table shows it. */
export interface NotificationItem {
  id: string;
  type: string;
  link: string;
  count: number;
  message: string;
  /** The values in `message` (names, amounts): isolated for right-to-left readers (issue 22). */
  messagePlaceholders?: Record<string, string | number>;
  subtext: string | null;
  subtextPlaceholders?: Record<string, string | number>;
  isRead: boolean;
  /** Unix seconds. */
  updatedAt: number;
}

export interface UnreadCounts {
  inbox: number;
  moderators: number;
  total: number;
}

export interface NotificationsPage {
  tab: NotificationTab;
  page: number;
  items: NotificationItem[];
  nextPageExist: boolean;
  unread: UnreadCounts;
}

/** Rows per page of the table (spec section 9 leaves it open; the API allows up to 50). */
export const PAGE_SIZE = 20;

/** The page's own URL for a tab and page: the island's links work without JavaScript too. */
export function pageHref(base: string, tab: NotificationTab, page: number): string {
  const query = new URLSearchParams();
  if (tab !== 'inbox') query.set('tab', tab);
  if (page > 1) query.set('page', String(page));
  const search = query.toString();
  return search ? `${base}?${search}` : base;
}
