import { type AccountChange, onAccountChange } from '../lib/account-change.ts';

// The header's signed-in state on every page. The pre-paint script set `signed-in` from the
// session's readable hint cookie; here we ask who it is (and drop a stale hint), follow changes
// of the name and avatar made on this page or in another tab (settings), and sign out through
// the API so a page without a form can do it.

interface CurrentUser {
  isLogged?: boolean;
  /** Public id (`usr_…`): the bell's personal channel. */
  id?: string;
  isSoundEnabled?: boolean;
  username?: string;
  avatarUrl?: string | null;
  /** A kiosk account (granted by operators): the header's kiosk entries show. */
  isKiosk?: boolean;
  /** A moderator or administrator: the header's disputes queue and operator console entries show. */
  isModerator?: boolean;
}

const root = document.documentElement;

function csrfHeader(): Record<string, string> {
  return { 'X-CSRF-Token': /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '' };
}

/**
 * The person's name and avatar in the header's slots; what `change` leaves out stays. The name's
 * slots are <bdi> (Header.astro): a Latin name keeps its punctuation on a Hebrew page (decision 132).
 */
function showAccount(change: AccountChange) {
  if (change.username) {
    for (const name of document.querySelectorAll<HTMLElement>('[data-account-name]'))
      name.textContent = change.username;
  }
  if (change.avatarUrl) {
    for (const slot of document.querySelectorAll<HTMLElement>('[data-account-avatar]')) {
      const image = new Image(28, 28);
      image.alt = '';
      image.src = change.avatarUrl;
      slot.replaceChildren(image);
    }
  }
}

onAccountChange((change) => {
  if (root.classList.contains('signed-in')) showAccount(change);
});

if (root.classList.contains('signed-in')) {
  fetch('/rest/v1/users/current_user', { headers: { Accept: 'application/json' } })
    .then((response) => response.json() as Promise<{ data?: CurrentUser }>)
    .then(({ data }) => {
      if (!data?.isLogged) {
        root.classList.remove('signed-in');
        // biome-ignore lint/suspicious/noDocumentCookie: clearing our own readable hint; the Cookie Store API is not in every browser yet
        document.cookie = 'signed_in=; Path=/; Max-Age=0; SameSite=Lax';
        return;
      }
      // The bell (src/scripts/bell.ts) starts its live part for this person.
      dispatchEvent(new CustomEvent('account:user', { detail: data }));
      showAccount(data);
      for (const entry of document.querySelectorAll<HTMLElement>('[data-kiosk-only]')) {
        entry.hidden = !data.isKiosk;
      }
      for (const entry of document.querySelectorAll<HTMLElement>('[data-staff-only]')) {
        entry.hidden = !data.isModerator;
      }
    })
    .catch(() => {
      // Offline: keep the hint; the next page asks again.
    });
}

for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-logout]')) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    fetch('/rest/v1/auth/logout', { method: 'POST', headers: csrfHeader() })
      // Refused (a stale token): the sign-out page's own form does it.
      .then((response) => location.assign(response.ok ? (link.dataset.after ?? '/') : link.href))
      .catch(() => location.assign(link.href));
  });
}
