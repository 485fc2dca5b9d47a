// A change to what the header shows of the signed-in person (their username, their avatar),
// announced by the screen that made it (settings) and applied by the header's script
// (src/scripts/account.ts): on this page at once, and in the person's other tabs through a
// BroadcastChannel, so no header keeps the old name until a reload.

export const ACCOUNT_CHANGED = 'account:changed';
const CHANNEL = 'coinfair-account';

export interface AccountChange {
  username?: string;
  avatarUrl?: string | null;
}

export function announceAccountChange(change: AccountChange): void {
  dispatchEvent(new CustomEvent<AccountChange>(ACCOUNT_CHANGED, { detail: change }));
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(change);
  channel.close();
}

/** Calls `apply` with every change announced here or in another tab of this site. */
export function onAccountChange(apply: (change: AccountChange) => void): void {
  addEventListener(ACCOUNT_CHANGED, (event) => apply((event as CustomEvent<AccountChange>).detail));
  if (typeof BroadcastChannel === 'undefined') return;
  new BroadcastChannel(CHANNEL).addEventListener('message', (event: MessageEvent<AccountChange>) => apply(event.data));
}
