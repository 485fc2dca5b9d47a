import { type Locale, localeFromParam } from '../shared/i18n/locales.ts';
import { translator } from '../shared/i18n/messages.ts';

/** A server-rendered page's language: the locale, its translator, and API paths that ask in it. */
export interface PageLocale {
  locale: Locale;
  t: ReturnType<typeof translator>;
  /** `path` with `locale=…` added to its query, so the API answers errors in the page's language. */
  api: (path: string) => string;
}

/**
 * The language of a page under `[...locale]` from its route parameter; undefined when the first
 * segment is no locale, and the page answers 404:
 * `const page = pageLocale(Astro.params.locale); if (!page) return Astro.rewrite('/404');`
 */
export function pageLocale(param: string | undefined): PageLocale | undefined {
  const locale = localeFromParam(param);
  if (!locale) return undefined;
  return {
    locale,
    t: translator(locale),
    api: (path) => `${path}${path.includes('?') ? '&' : '?'}locale=${locale}`,
  };
}
