import { formatBadgeCount } from '../lib/badge.ts';

// The bell's unread badge. Whoever knows the count (the API poll or the websocket, in later
// issues) dispatches `notifications:count` on window; the bell only renders it.

export interface NotificationsCountDetail {
  count: number;
}

const badge = document.querySelector<HTMLElement>('[data-testid="notification-badge"]');

if (badge) {
  addEventListener('notifications:count', (event) => {
    const { detail } = event as CustomEvent<NotificationsCountDetail | undefined>;
    const text = formatBadgeCount(Number(detail?.count));
    badge.textContent = text;
    badge.hidden = !text;
  });
}
