import { personalChannel } from '../../realtime/channels.ts';
import type { PersonContext } from '../context.ts';
import type { NotificationsDeps } from './deps.ts';
import type { NotificationTab } from './repository.ts';
import { COUNTS_EVENT, type ListInput, renderNotification, type UnreadCounts } from './view.ts';

// The reader's own notifications: the list and its unread counts, and marking them read (the
// person's open pages hear the new counts).

export function unreadCounts({ repo }: Pick<NotificationsDeps, 'repo'>, userId: number): UnreadCounts {
  const byTab = repo.unreadByTab(userId);
  return { ...byTab, total: byTab.inbox + byTab.moderators };
}

function publishCounts(deps: NotificationsDeps, userId: number): void {
  const recipient = deps.repo.recipient(userId);
  if (recipient) {
    deps.bus.publish(personalChannel('notifications', recipient.publicId), {
      type: COUNTS_EVENT,
      payload: unreadCounts(deps, userId),
    });
  }
}

export function listNotifications({ repo }: NotificationsDeps, ctx: PersonContext, input: ListInput) {
  const userId = ctx.auth.user.id;
  const rows = repo.list({ userId, tab: input.tab, types: input.types, read: input.read }, input.limit, input.offset);
  const unread = unreadCounts({ repo }, userId);
  return {
    data: rows.slice(0, input.limit).map((row) => renderNotification(row, input.locale)),
    meta: {
      name: input.tab,
      numberOfUnread: input.types?.length
        ? repo.countUnread({ userId, tab: input.tab, types: input.types })
        : unread[input.tab],
      nextPageExist: rows.length > input.limit,
      unread,
    },
  };
}

/** Marks the caller's own notifications read; ids of others change nothing. */
export function markRead(
  deps: NotificationsDeps,
  ctx: PersonContext,
  { ids }: { ids: readonly string[] },
): { updated: number; unread: UnreadCounts } {
  const userId = ctx.auth.user.id;
  const updated = deps.repo.markRead(userId, ids, false);
  if (updated > 0) publishCounts(deps, userId);
  return { updated, unread: unreadCounts(deps, userId) };
}

/** Read where they are shown (the trade page is open): read, and the chat's count back to zero. */
export function resetCounters(
  deps: NotificationsDeps,
  ctx: PersonContext,
  { ids }: { ids: readonly string[] },
): { updated: number; unread: UnreadCounts } {
  const userId = ctx.auth.user.id;
  const updated = deps.repo.markRead(userId, ids, true);
  if (updated > 0) publishCounts(deps, userId);
  return { updated, unread: unreadCounts(deps, userId) };
}

/** Spec section 4: marking all read applies to one tab (and the caller's type filter). */
export function markAll(
  deps: NotificationsDeps,
  ctx: PersonContext,
  filter: { tab: NotificationTab; types?: readonly string[] | undefined },
) {
  const userId = ctx.auth.user.id;
  const updated = deps.repo.markAll({ userId, tab: filter.tab, types: filter.types });
  if (updated > 0) publishCounts(deps, userId);
  return { updated, unread: unreadCounts(deps, userId) };
}
