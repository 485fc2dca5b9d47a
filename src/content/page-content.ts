import { getEntry } from 'astro:content';
import { defaultLocale, type Locale } from '../lib/shared/i18n/locales.ts';
import type { PageCollection, PageData } from './schema.ts';

/**
 * A page's content in `locale`, for a prerendered page: the language's own entry, or English
 * where the language declares `fallback: en` (then `lang` is `en`, so the page can mark the
 * English text for screen readers and the build report has listed it). A missing entry throws,
 * failing the build: `npm run check:content` says which file to add.
 */
export async function pageContent<C extends PageCollection>(
  collection: C,
  locale: Locale,
): Promise<{ content: PageData<C>; lang: Locale }> {
  // `npm run dev` keeps showing the last good content when a file breaks; the preview says why
  // instead (Astro's error page names the file and field, as the check and the build do).
  if (import.meta.env.MODE === 'development') {
    const { checkContent, formatReport } = await import('../../scripts/check-content.ts');
    const report = checkContent(undefined, [collection]);
    if (report.errors.length > 0) throw new Error(formatReport(report));
  }
  const entry = await getEntry(collection, locale);
  if (!entry) throw new Error(`src/content/${collection}/${locale}.yaml is missing (npm run check:content)`);
  const data = entry.data as PageData<C> | { fallback: 'en' };
  if (!('fallback' in data)) return { content: data, lang: locale };
  const english = await getEntry(collection, defaultLocale);
  const content = english?.data as PageData<C> | { fallback: 'en' } | undefined;
  if (!content || 'fallback' in content) {
    throw new Error(`src/content/${collection}/en.yaml is missing or a fallback (npm run check:content)`);
  }
  return { content, lang: defaultLocale };
}
