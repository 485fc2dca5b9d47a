import ca from '../../../../locales/ca.json' with { type: 'json' };
import da from '../../../../locales/da.json' with { type: 'json' };
import de from '../../../../locales/de.json' with { type: 'json' };
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import fr from '../../../../locales/fr.json' with { type: 'json' };
import he from '../../../../locales/he.json' with { type: 'json' };
import it from '../../../../locales/it.json' with { type: 'json' };
import ja from '../../../../locales/ja.json' with { type: 'json' };
import ko from '../../../../locales/ko.json' with { type: 'json' };
import nl from '../../../../locales/nl.json' with { type: 'json' };
import no from '../../../../locales/no.json' with { type: 'json' };
import pl from '../../../../locales/pl.json' with { type: 'json' };
import pt from '../../../../locales/pt.json' with { type: 'json' };
import ru from '../../../../locales/ru.json' with { type: 'json' };
import sv from '../../../../locales/sv.json' with { type: 'json' };
import tr from '../../../../locales/tr.json' with { type: 'json' };
import vi from '../../../../locales/vi.json' with { type: 'json' };
import zh from '../../../../locales/zh.json' with { type: 'json' };
import { interpolate, type MessageParams } from './interpolate.ts';
import type { IslandMessages } from './island-messages.ts';
import type { Locale } from './locales.ts';

// All catalogues in one module: right for prerendered pages and the server, where size does not
// matter. Islands must not import this module (it would ship 19 catalogues to the browser).

export type MessageKey = keyof typeof en;
export type Catalogue = Partial<Record<MessageKey, string>>;

export const catalogues: Record<Locale, Catalogue> = {
  en,
  ca,
  da,
  de,
  es,
  fr,
  he,
  it,
  ja,
  ko,
  nl,
  no,
  pl,
  pt,
  sv,
  ru,
  vi,
  zh,
  tr,
};

export { interpolate, type MessageParams };

/**
 * The message for `key` in `locale`. A key missing in a locale falls back to English; the
 * locale-completeness test keeps that from ever reaching a user.
 */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = catalogues[locale][key] ?? en[key];
  return interpolate(template, params);
}

/** A translator bound to one locale, for a page: `const t = translator(locale); t('home.title')`. */
export function translator(locale: Locale) {
  return (key: MessageKey, params?: MessageParams) => translate(locale, key, params);
}

/** The messages of `locale` whose keys start with one of `prefixes`, for an island's props. */
export function pickMessages(locale: Locale, prefixes: readonly string[]): IslandMessages {
  const picked: IslandMessages = {};
  for (const key of Object.keys(en) as MessageKey[]) {
    if (prefixes.some((prefix) => key.startsWith(prefix))) picked[key] = translate(locale, key);
  }
  return picked;
}
