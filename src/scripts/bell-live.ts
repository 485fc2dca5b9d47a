import { apiGet, apiPost } from '../lib/api-client.ts';
import { createRealtimeClient } from '../lib/realtime-client.ts';
import { piecesAround } from '../lib/shared/i18n/isolate.ts';

// The bell's live part for a signed-in person, on every page (static and app pages share the
// header): the unread count, the popup with the latest notifications, toasts and sounds, fed by the
// personal `notifications:<usr_…>` channel. Activated by src/scripts/bell.ts only once account.ts
// knows who is signed in. The rules are spec section 4's "Notifications"; the numbers section 9's.

interface Item {
  id: string;
  type: string;
  link: string;
  message: string;
  /** The values the server put in `message` (names, amounts): each shows in a <bdi>. */
  messagePlaceholders?: Record<string, string | number>;
  subtext: string | null;
  subtextPlaceholders?: Record<string, string | number>;
  isRead: boolean;
  updatedAt: number;
}

interface Counts {
  total: number;
}

/** Chat and attachment types: marked read at once when their trade's page is the one open. */
const CHAT = ['trade_msg_received', 'trade_attach_uploaded', 'moderator_message', 'trade_attach_uploaded_by_moderator'];
const POPUP_ITEMS = 10;
const TOAST_MS = 6000;
/** The least height a toast needs under the open popup. */
const TOAST_ROOM_PX = 96;
/** Spec section 9: one retry after 3 s. */
const MARK_READ_RETRY_MS = 3000;

const popup = document.getElementById('bell-popup');
const bell = document.querySelector<HTMLAnchorElement>('[data-testid="notification-bell"]');
const toasts = document.querySelector<HTMLElement>('[data-toasts]');
const locale = popup?.dataset.locale ?? 'en';

let items: Item[] = [];
let unread = 0;
let sound = true;

const setUnread = (count: number) => {
  unread = Math.max(0, count);
  dispatchEvent(new CustomEvent('notifications:count', { detail: { count: unread } }));
};

/** Sent for unread ones only; retried once after 3 s; a failure is only logged (spec section 8). */
function markRead(ids: string[], path = '/rest/v1/notifications', retried = false): void {
  if (ids.length === 0) return;
  void apiPost<unknown>(path, { ids }).then((result) => {
    const counts = result.meta?.unread as Counts | undefined;
    if (result.ok && counts) setUnread(counts.total);
    else if (!retried) setTimeout(() => markRead(ids, path, true), MARK_READ_RETRY_MS);
    else console.warn('notifications: could not mark read', result.errors);
  });
}

/**
 * The server's sentence with each of its placeholder values in a <bdi>, so "Adaeze O." keeps its
 * full stop after the O on a Hebrew page (decision 132; the notifications page does the same).
 */
function isolated(element: HTMLElement, text: string, values: Item['messagePlaceholders']): HTMLElement {
  element.append(
    ...piecesAround(text, Object.values(values ?? {})).map((piece) => {
      if ('text' in piece) return piece.text;
      const value = document.createElement('bdi');
      value.textContent = piece.value;
      return value;
    }),
  );
  return element;
}

function itemElement(item: Item, tag: 'li' | 'div'): HTMLElement {
  const element = document.createElement(tag);
  element.className = item.isRead ? 'bell-item' : 'bell-item unread';
  element.dataset.id = item.id;
  element.dataset.type = item.type;
  const link = document.createElement('a');
  link.href = item.link;
  link.append(isolated(document.createElement('strong'), item.message, item.messagePlaceholders));
  if (item.subtext) link.append(isolated(document.createElement('span'), item.subtext, item.subtextPlaceholders));
  const time = document.createElement('time');
  const at = new Date(item.updatedAt * 1000);
  time.dateTime = at.toISOString();
  time.textContent = at.toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
  link.append(time);
  element.append(link);
  return element;
}

function render(): void {
  const list = popup?.querySelector('[data-bell-list]');
  if (!list) return;
  list.replaceChildren(...items.slice(0, POPUP_ITEMS).map((item) => itemElement(item, 'li')));
  popup?.querySelector('[data-bell-empty]')?.toggleAttribute('hidden', items.length > 0);
}

async function loadLatest(): Promise<void> {
  // The popup shows both tabs' latest together, newest first.
  const [inbox, moderators] = await Promise.all(
    ['inbox', 'moderators'].map((tab) =>
      apiGet<Item[]>(`/rest/v1/notifications?name=${tab}&limit=${POPUP_ITEMS}&locale=${locale}`),
    ),
  );
  items = [...(inbox?.data ?? []), ...(moderators?.data ?? [])]
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, POPUP_ITEMS);
  const counts = inbox?.meta?.unread as Counts | undefined;
  if (counts) setUnread(counts.total);
}

function setOpen(open: boolean): void {
  if (!popup || !bell) return;
  popup.hidden = !open;
  bell.setAttribute('aria-expanded', String(open));
  if (!open) return;
  void loadLatest().then(() => {
    render();
    // What the popup shows is seen: the unread ones are marked read (their highlight stays until closed).
    markRead(items.filter((item) => !item.isRead).map((item) => item.id));
  });
}

/**
 * Toasts never cover the open popup: while it is open they start 8 px below it, and where the
 * screen has no room left under it (a phone, a long list) they wait hidden; the popup lists the
 * same notifications anyway.
 */
function placeToasts(): void {
  if (!toasts || !popup) return;
  if (popup.hidden) {
    toasts.style.insetBlockStart = '';
    toasts.hidden = false;
    return;
  }
  const below = Math.ceil(popup.getBoundingClientRect().bottom) + 8;
  toasts.style.insetBlockStart = `${below}px`;
  toasts.hidden = below + TOAST_ROOM_PX > innerHeight;
}

function toast(item: Item): void {
  if (!toasts) return;
  const element = itemElement(item, 'div');
  element.classList.add('toast');
  element.setAttribute('role', 'status');
  toasts.prepend(element);
  while (toasts.children.length > 3) toasts.lastElementChild?.remove();
  setTimeout(() => element.remove(), TOAST_MS);
}

function play(type: string): void {
  if (!sound) return;
  // Spec section 9: one sound for a trade started with you, another for the rest.
  const audio = new Audio(type === 'trade_started_receiver' ? '/sounds/trade-started.wav' : '/sounds/notification.wav');
  // Browsers refuse sound before the first interaction with the page: nothing to do about it.
  audio.play().catch(() => {});
}

function receive(payload: Item & { type: string }): void {
  if (payload.type === 'system:active_trades_updated') {
    // Only a refresh of the active trades (spec section 4); the trades screens listen.
    dispatchEvent(new CustomEvent('notifications:active-trades', { detail: payload }));
    return;
  }
  const existing = items.find((item) => item.id === payload.id);
  items = [payload, ...items.filter((item) => item.id !== payload.id)].slice(0, POPUP_ITEMS);
  if (CHAT.includes(payload.type) && location.pathname.endsWith(payload.link)) {
    // The person is looking at that chat: read at once, counters reset through the server.
    payload.isRead = true;
    markRead([payload.id], '/rest/v1/notifications/reset-counters');
    if (popup?.hidden === false) render();
    return;
  }
  if (!payload.isRead && (!existing || existing.isRead)) setUnread(unread + 1);
  if (popup?.hidden === false) render();
  toast(payload);
  play(payload.type);
}

/** Starts for the person src/scripts/bell.ts wrote on the bell (`data-user`, `data-sound`). */
export function startBell(): void {
  const user = bell?.dataset.user;
  if (!user) return;
  sound = bell?.dataset.sound !== 'false';
  const channel = `notifications:${user}`;
  // The popup's size changes as it opens, closes and fills: the toasts follow it.
  if (popup) new ResizeObserver(placeToasts).observe(popup);
  addEventListener('resize', placeToasts);
  bell?.addEventListener('click', (event) => {
    event.preventDefault();
    setOpen(popup?.hidden === true);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node;
    if (popup?.hidden === false && !popup.contains(target) && !bell?.contains(target)) setOpen(false);
  });
  addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && popup?.hidden === false) {
      setOpen(false);
      bell?.focus();
    }
  });
  // The count first, with the smallest page of the list.
  void apiGet<Item[]>(`/rest/v1/notifications?limit=1&locale=${locale}`).then((result) => {
    const counts = result.meta?.unread as Counts | undefined;
    if (counts) setUnread(counts.total);
  });
  const keyOf = async (path: string, channels: readonly string[]) =>
    (await apiPost<{ auth_key?: string }>(path, { channels })).data?.auth_key;
  createRealtimeClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
    channels: [channel],
    authorize: () => keyOf(`/trade/push-authorize/${user}?camelCase=1`, [channel]),
    reauthorize: (channels) => keyOf('/account/re-auth-push-subscription', channels),
    // On the bell for whoever needs to know the live part is connected (the trades screen's tests).
    onStatus: (_channel, status) => {
      if (bell) bell.dataset.connection = status;
    },
    onEvent: (_channel, event) => {
      if (event.type === 'notification') receive(event.payload as Item);
      else if (event.type === 'notifications_counts') setUnread((event.payload as Counts).total);
    },
  });
}
