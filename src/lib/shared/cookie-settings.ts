// Cookie consent (spec section 3: eight categories, all on by default; section 9: one year, path /).
// Isomorphic: the static pages' banner script and the API's /rest/v1/cookie-policy share this format.

export const cookieCategories = [
  'login',
  'newsletter',
  'survey',
  'site',
  'account',
  'orderProcessing',
  'forms',
  'thirdParty',
] as const;

export type CookieCategory = (typeof cookieCategories)[number];
export type CookieSettings = Record<CookieCategory, boolean>;

export const COOKIE_SETTINGS_NAME = 'cookie_settings';
export const COOKIE_SETTINGS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export function defaultCookieSettings(): CookieSettings {
  return Object.fromEntries(cookieCategories.map((c) => [c, true])) as CookieSettings;
}

/**
 * The cookie value: one character per category in `cookieCategories` order, `1` on and `0` off
 * (`11111111`). Compact, needs no escaping, and an unknown or damaged value reads as the defaults.
 */
export function serializeCookieSettings(settings: CookieSettings): string {
  return cookieCategories.map((c) => (settings[c] ? '1' : '0')).join('');
}

export function parseCookieSettings(value: string | undefined | null): CookieSettings {
  const settings = defaultCookieSettings();
  if (!value || !/^[01]+$/.test(value) || value.length !== cookieCategories.length) return settings;
  cookieCategories.forEach((c, i) => {
    settings[c] = value[i] === '1';
  });
  return settings;
}

/** The full `Set-Cookie`/`document.cookie` string for the given settings. */
export function cookieSettingsHeader(settings: CookieSettings, secure = false): string {
  const parts = [
    `${COOKIE_SETTINGS_NAME}=${serializeCookieSettings(settings)}`,
    'Path=/',
    `Max-Age=${COOKIE_SETTINGS_MAX_AGE_SECONDS}`,
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
