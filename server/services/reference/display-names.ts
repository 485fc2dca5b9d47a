import { type Locale, localeTags } from '../../../src/lib/shared/i18n/locales.ts';

// Currency and country names in the reader's language come from ICU (Node ships full ICU), so
// all 19 languages are covered without translating 400 names by hand. Formatters are cached:
// constructing Intl.DisplayNames costs far more than using one.

const cache = new Map<string, Intl.DisplayNames>();

function displayNames(locale: Locale, type: 'currency' | 'region'): Intl.DisplayNames {
  const key = `${locale}:${type}`;
  let names = cache.get(key);
  if (!names) {
    names = new Intl.DisplayNames([localeTags[locale]], { type, fallback: 'none' });
    cache.set(key, names);
  }
  return names;
}

export function localizedCurrencyName(locale: Locale, code: string, fallback: string): string {
  if (locale === 'en') return fallback;
  return displayNames(locale, 'currency').of(code) ?? fallback;
}

export function localizedCountryName(locale: Locale, iso: string, fallback: string): string {
  if (locale === 'en') return fallback;
  return displayNames(locale, 'region').of(iso) ?? fallback;
}
