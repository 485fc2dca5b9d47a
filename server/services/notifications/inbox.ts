import { personalChannel } from '../../realtime/channels.ts';
import type { PersonContext } from '../context.ts';
import type { NotificationsDeps } from './deps.ts';
import type { NotificationTab } from './repository.ts';
import { COUNTS_EVENT, type ListInput, renderNotification, type UnreadCounts } from './view.ts';

// The reader's own notifications: the list and its unread counts, and marking them read (the
// person's open pages hear the new counts).

export async function unreadCounts({ repo }: Pick<NotificationsDeps, 'repo'>, userId: number): Promise<UnreadCounts> {
  const byTab = await repo.unreadByTab(userId);
  return { ...byTab, total: byTab.inbox + byTab.moderators };
}

async function publishCounts(deps: NotificationsDeps, userId: number): Promise<void> {
  const recipient = await deps.repo.recipient(userId);
  if (recipient) {
    deps.bus.publish(personalChannel('notifications', recipient.publicId), {
      type: COUNTS_EVENT,
      payload: await unreadCounts(deps, userId),
    });
  }
}

export async function listNotifications({ repo }: NotificationsDeps, ctx: PersonContext, input: ListInput) {
  const userId = ctx.auth.user.id;
  const rows = await repo.list(
    { userId, tab: input.tab, types: input.types, read: input.read },
    input.limit,
    input.offset,
  );
  const unread = await unreadCounts({ repo }, userId);
  return {
    data: rows.slice(0, input.limit).map((row) => renderNotification(row, input.locale)),
    meta: {
      name: input.tab,
      numberOfUnread: input.types?.length
        ? await repo.countUnread({ userId, tab: input.tab, types: input.types })
        : unread[input.tab],
      nextPageExist: rows.length > input.limit,
      unread,
    },
  };
}

/** Marks the caller's own notifications read; ids of others change nothing. */
export async function markRead(
  deps: NotificationsDeps,
  ctx: PersonContext,
  { ids }: { ids: readonly string[] },
): Promise<{ updated: number; unread: UnreadCounts }> {
  const userId = ctx.auth.user.id;
  const updated = await deps.repo.markRead(userId, ids, false);
  if (updated > 0) await publishCounts(deps, userId);
  return { updated, unread: await unreadCounts(deps, userId) };
}

/** Read where they are shown (the trade page is open): read, and the chat's count back to zero. */
export async function resetCounters(
  deps: NotificationsDeps,
  ctx: PersonContext,
  { ids }: { ids: readonly string[] },
): Promise<{ updated: number; unread: UnreadCounts }> {
  const userId = ctx.auth.user.id;
  const updated = await deps.repo.markRead(userId, ids, true);
  if (updated > 0) await publishCounts(deps, userId);
  return { updated, unread: await unreadCounts(deps, userId) };
}

/** Spec section 4: marking all read applies to one tab (and the caller's type filter). */
export async function markAll(
  deps: NotificationsDeps,
  ctx: PersonContext,
  filter: { tab: NotificationTab; types?: readonly string[] | undefined },
): Promise<{ updated: number; unread: UnreadCounts }> {
  const userId = ctx.auth.user.id;
  const updated = await deps.repo.markAll({ userId, tab: filter.tab, types: filter.types });
  if (updated > 0) await publishCounts(deps, userId);
  return { updated, unread: await unreadCounts(deps, userId) };
}
