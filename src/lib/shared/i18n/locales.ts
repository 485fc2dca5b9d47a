// The 19 UI languages of spec section 9. English is the default and has no URL prefix.
export const locales = [
  'en',
  'ca',
  'da',
  'de',
  'es',
  'fr',
  'he',
  'it',
  'ja',
  'ko',
  'nl',
  'no',
  'pl',
  'pt',
  'sv',
  'ru',
  'vi',
  'zh',
  'tr',
] as const;

export type Locale = (typeof locales)[number];

export const defaultLocale: Locale = 'en';

/** Each language named in itself, for the language switcher. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  ca: 'Català',
  da: 'Dansk',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  he: 'עברית',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  nl: 'Nederlands',
  no: 'Norsk',
  pl: 'Polski',
  pt: 'Português',
  sv: 'Svenska',
  ru: 'Русский',
  vi: 'Tiếng Việt',
  zh: '中文',
  tr: 'Türkçe',
};

/** BCP 47 tags for Intl and `<html lang>`; `no` is written as Norwegian Bokmål. */
export const localeTags: Record<Locale, string> = {
  en: 'en',
  ca: 'ca',
  da: 'da',
  de: 'de',
  es: 'es',
  fr: 'fr',
  he: 'he',
  it: 'it',
  ja: 'ja',
  ko: 'ko',
  nl: 'nl',
  no: 'nb',
  pl: 'pl',
  pt: 'pt',
  sv: 'sv',
  ru: 'ru',
  vi: 'vi',
  zh: 'zh-Hans',
  tr: 'tr',
};

const localeSet: ReadonlySet<string> = new Set(locales);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && localeSet.has(value);
}

export function textDirection(locale: Locale): 'rtl' | 'ltr' {
  return locale === 'he' ? 'rtl' : 'ltr';
}

export function localePrefix(locale: Locale): string {
  return locale === defaultLocale ? '' : `/${locale}`;
}

/** `/vendors` in `de` → `/de/vendors`; `/` in `de` → `/de/`. */
export function localizePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  const prefix = localePrefix(locale);
  if (!prefix) return clean;
  return clean === '/' ? `${prefix}/` : `${prefix}${clean}`;
}

/** Splits a pathname into its locale and the locale-free rest: `/de/vendors` → `de`, `/vendors`. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)(.*)$/.exec(pathname);
  if (match && isLocale(match[1]) && match[1] !== defaultLocale) {
    return { locale: match[1], path: match[2] || '/' };
  }
  return { locale: defaultLocale, path: pathname || '/' };
}

/** `getStaticPaths` entries for a page under `src/pages/[...locale]/` (en has no segment). */
export function localeStaticPaths() {
  return locales.map((locale) => ({
    params: { locale: locale === defaultLocale ? undefined : locale },
    props: { locale },
  }));
}

/** The locale of a page rendered per request from its `[...locale]` segment; undefined → 404. */
export function localeFromParam(param: string | undefined): Locale | undefined {
  if (param === undefined) return defaultLocale;
  return isLocale(param) && param !== defaultLocale ? param : undefined;
}
