import type { Context } from 'hono';
import { defaultLocale, isLocale, type Locale } from '../../src/lib/shared/i18n/locales.ts';
import { readCookie } from './cookies.ts';

/**
 * The language of an API answer: `?locale=` first (pages pass their own), then the `locale`
 * cookie, then the best Accept-Language match, then English.
 */
export function requestLocale(c: Context): Locale {
  const query = c.req.query('locale');
  if (isLocale(query)) return query;
  const cookie = readCookie(c.req.header('cookie'), 'locale');
  if (isLocale(cookie)) return cookie;
  return fromAcceptLanguage(c.req.header('accept-language')) ?? defaultLocale;
}

export function fromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const base = tag.split('-')[0];
    // Norwegian Bokmål and Nynorsk both map to our `no` catalogue.
    const candidate = base === 'nb' || base === 'nn' ? 'no' : base;
    if (isLocale(candidate)) return candidate;
  }
  return undefined;
}
