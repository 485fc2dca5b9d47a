import { bindVerb } from '../context.ts';
import type { NotificationsDeps } from './deps.ts';
import { listNotifications, markAll, markRead, resetCounters } from './inbox.ts';
import { activeTradesUpdated, notify } from './notify.ts';

// Notifications of spec sections 3 and 4: stored per person, texts as translation keys rendered
// in the reader's language, grouped per trade for chat activity, pushed live on the person's
// `notifications:<usr_…>` channel after the commit, and queued in the same transaction for
// e-mail, SMS and Telegram (deliveries.ts sends them). One verb per file (notify.ts, inbox.ts);
// this wires them to the area's deps.

export type { NotificationsDeps } from './deps.ts';
export {
  COUNTS_EVENT,
  type ListInput,
  NOTIFICATION_EVENT,
  type NotificationView,
  type NotifyInput,
  renderNotification,
  type UnreadCounts,
} from './view.ts';

/** The verbs with the area's deps bound: what callers see is `verb(ctx, input)`. */
export function createNotificationsService(deps: NotificationsDeps) {
  return {
    notify: bindVerb(deps, notify),
    activeTradesUpdated: bindVerb(deps, activeTradesUpdated),
    list: bindVerb(deps, listNotifications),
    markRead: bindVerb(deps, markRead),
    resetCounters: bindVerb(deps, resetCounters),
    markAll: bindVerb(deps, markAll),
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
