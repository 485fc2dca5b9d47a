import { createContext, useContext } from 'react';
import { type ApiResult, NETWORK_ERROR_CODE, splitErrors } from '../../lib/api-client.ts';
import type { MessageParams } from '../../lib/shared/i18n/interpolate.ts';

// What every section of the settings island needs: the translator, the page's language, and the
// API paths with `?locale=` so the server's messages come back in that language.

export interface SettingsContextValue {
  t: (key: string, params?: MessageParams) => string;
  locale: string;
  lang: string;
}

export const SettingsContext = createContext<SettingsContextValue | null>(null);

export function useSettings(): SettingsContextValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error('A settings section is rendered outside <SettingsApp>.');
  return value;
}

/** `/rest/v1/users/settings` → `/rest/v1/users/settings?locale=de`. */
export function localized(path: string, locale: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`;
}

export interface Failure {
  /** The message for the top of the form (role=alert). */
  summary: string | undefined;
  /** Messages per field the form shows. */
  fields: Record<string, string>;
  /** After a 429: when (epoch ms) the server takes the request again. */
  retryAt?: number | undefined;
}

export const noFailure: Failure = { summary: undefined, fields: {} };

/**
 * The messages a failed call shows: the server's, per field where the form has the field. A 429
 * says when to try again (Retry-After); a call that got no answer says so.
 */
export function failureOf(
  result: ApiResult<unknown>,
  fields: readonly string[],
  { t, lang }: Pick<SettingsContextValue, 't' | 'lang'>,
): Failure {
  if (result.errors.some((e) => e.code === NETWORK_ERROR_CODE)) {
    return { summary: t('settings.networkError'), fields: {} };
  }
  if (result.status === 429) {
    const until = new Date(Date.now() + (result.retryAfterSeconds ?? 60) * 1000);
    const time = new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(until);
    const serverMessage = result.errors[0]?.message;
    return {
      summary: [serverMessage, t('settings.retryAt', { time })].filter(Boolean).join(' '),
      fields: {},
      retryAt: until.getTime(),
    };
  }
  const split = splitErrors(result.errors, fields);
  const hasField = Object.keys(split.fields).length > 0;
  return {
    summary: split.summary || (hasField ? undefined : t('settings.genericError')),
    fields: split.fields,
  };
}
