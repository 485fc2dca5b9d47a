import { formatBadgeCount } from '../lib/badge.ts';

// The bell's unread badge. Whoever knows the count (the live part below, the notifications page)
// dispatches `notifications:count` on window; the bell only renders it. For a signed-in person
// the live part (popup, toasts, sounds, the realtime channel) loads on demand, so visitors who are
// not signed in download none of it (the static pages' 5 KB budget).

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
  // src/scripts/account.ts announces who is signed in; the live part (an inert <template> in
  // Header.astro) reads them from the bell and starts once its script is in the document.
  addEventListener('account:user', (event) => {
    const user = (event as CustomEvent<{ id?: string; isSoundEnabled?: boolean }>).detail;
    const bell = document.querySelector<HTMLElement>('[data-testid="notification-bell"]');
    const live = document.querySelector<HTMLTemplateElement>('template[data-bell-live]');
    if (!user?.id || !bell || !live) return;
    bell.dataset.user = user.id;
    bell.dataset.sound = String(user.isSoundEnabled !== false);
    document.body.append(live.content.cloneNode(true));
    live.remove();
  });
}
