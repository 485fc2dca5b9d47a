// The developers' pages' translated prose with code and links inside (index.astro and its
// _api-guide.ts): a message's `{placeholders}` filled by inline code, links or text, as HTML with
// every piece escaped; and durations in the reader's language. Not a route: Astro serves no file
// of src/pages whose name starts with an underscore.
import { type Locale, localeTags } from '../../../lib/shared/i18n/locales.ts';
import { type MessageKey, translator } from '../../../lib/shared/i18n/messages.ts';

/** What fills a placeholder: text, a name in code, several names listed, or a link. */
export type Part = string | { code: string } | { codes: string[] } | { href: string; text: string; code?: boolean };

export const code = (text: string): Part => ({ code: text });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Short names (headers, fields) stay on one line; long calls may wrap anywhere.
const codeHtml = (text: string) =>
  `<code dir="ltr"${text.length <= 24 ? ' class="nowrap"' : ''}>${escapeHtml(text)}</code>`;

export function docsText(locale: Locale) {
  const t = translator(locale);
  const tag = localeTags[locale];
  const partHtml = (part: Part) => {
    if (typeof part === 'string') return escapeHtml(part);
    if ('href' in part)
      return `<a href="${escapeHtml(part.href)}">${part.code ? codeHtml(part.text) : escapeHtml(part.text)}</a>`;
    if ('code' in part) return codeHtml(part.code);
    // Several names, listed as the reader's language lists them ("A, B and C").
    return new Intl.ListFormat(tag, { type: 'conjunction' })
      .formatToParts(part.codes)
      .map((piece) => (piece.type === 'element' ? codeHtml(piece.value) : escapeHtml(piece.value)))
      .join('');
  };
  /** A message with its `{placeholders}` filled by code, links or text, as HTML; every piece escaped. */
  const rich = (key: MessageKey, parts: Record<string, Part> = {}) =>
    escapeHtml(t(key)).replace(/\{(\w+)\}/g, (whole, name: string) => {
      const part = parts[name];
      return part === undefined ? whole : partHtml(part);
    });
  /** 5 → "5 seconds", 120 → "2 minutes", 3600 → "1 hour", in the reader's language. */
  const duration = (seconds: number) => {
    const [value, unit] =
      seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : seconds % 60 === 0
          ? [seconds / 60, 'minute']
          : [seconds, 'second'];
    return new Intl.NumberFormat(tag, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
  };
  return { t, rich, duration };
}

export type DocsText = ReturnType<typeof docsText>;
