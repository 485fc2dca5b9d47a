// The person's currency for pages built ahead of time (issue 19): their country's (their
// settings', else where they are). One question per browser tab session, remembered in
// sessionStorage and asked again when the signed-in hint changes or their country does.

const STORE_KEY = 'coinfair:currency';

function signedInHint(): string {
  return /(?:^|;\s*)signed_in=([^;]*)/.exec(document.cookie)?.[1] ?? '';
}

/** The person's currency code, or null when it cannot be had (offline: the page keeps its default). */
export async function localCurrency(): Promise<string | null> {
  const hint = signedInHint();
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as { hint: string; code: string } | null;
    if (stored && stored.hint === hint) return stored.code;
  } catch {
    // Storage off or a broken value: ask the server.
  }
  try {
    const response = await fetch('/rest/v1/users/current_user', { headers: { Accept: 'application/json' } });
    const code = ((await response.json()) as { data?: { currency?: string } }).data?.currency;
    if (!code || !/^[A-Z]{3}$/.test(code)) return null;
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify({ hint, code }));
    } catch {
      // Private mode without storage: ask again next page.
    }
    return code;
  } catch {
    return null;
  }
}

/** Forgets the remembered currency: the settings page calls it after the country changes. */
export function forgetLocalCurrency(): void {
  try {
    sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Nothing remembered.
  }
}
