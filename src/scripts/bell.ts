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
  // src/scripts/account.ts announces who is signed in.
  addEventListener('account:user', (event) => {
    const user = (event as CustomEvent<{ id?: string; isSoundEnabled?: boolean }>).detail;
    if (user?.id)
      void import('./bell-live.ts').then((live) =>
        live.startBell({ id: user.id ?? '', sound: user.isSoundEnabled !== false }),
      );
  });
}
