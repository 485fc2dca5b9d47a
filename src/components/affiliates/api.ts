import type { Locale } from '../../lib/shared/i18n/locales.ts';

/** `path` asked in the page's language, so the API's error messages come translated. */
export const inLocale = (locale: Locale, path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${locale}`;

/** A fresh key per move to the wallet (the API's 8–100 of [A-Za-z0-9_-]): a retry of the same click repeats none. */
export const newIdempotencyKey = () => crypto.randomUUID().replaceAll('-', '');
