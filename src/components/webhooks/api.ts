import { type ApiResult, apiGet, apiPost, apiRequest } from '../../lib/api-client.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { WebhookDeliveryView, WebhookEventName, WebhookView } from '../../lib/shared/webhooks.ts';

// The /webhooks screen's calls (server/routes/webhooks.ts), each asked in the page's language so
// the API's error messages come translated. Nothing here throws: every answer is an ApiResult.

/** `path` asked in the page's language. */
export const inLocale = (locale: Locale, path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${locale}`;

export const webhooksApi = {
  join: (locale: Locale) => apiPost<{ isMerchant: boolean }>(inLocale(locale, '/rest/v1/merchants/join')),
  read: (locale: Locale) => apiGet<WebhookView>(inLocale(locale, '/rest/v1/webhooks')),
  verify: (locale: Locale, url: string) =>
    apiPost<{ challenge: string; url: string }>(inLocale(locale, '/rest/v1/webhooks/verify'), { url }),
  save: (locale: Locale, url: string) => apiPost<WebhookView>(inLocale(locale, '/rest/v1/webhooks'), { url }),
  remove: (locale: Locale) => apiRequest<WebhookView>('DELETE', inLocale(locale, '/rest/v1/webhooks')),
  events: (locale: Locale, events: { name: WebhookEventName; checked: boolean }[]) =>
    apiPost<WebhookView>(inLocale(locale, '/rest/v1/webhooks/events'), { events }),
  rotate: (locale: Locale) => apiPost<WebhookView>(inLocale(locale, '/rest/v1/webhooks/secret')),
  test: (locale: Locale) => apiPost<WebhookDeliveryView>(inLocale(locale, '/rest/v1/webhooks/test')),
  deliveries: (locale: Locale, before: string | null) =>
    apiGet<WebhookDeliveryView[]>(
      inLocale(locale, `/rest/v1/webhooks/deliveries${before ? `?before=${encodeURIComponent(before)}` : ''}`),
    ),
  resend: (locale: Locale, id: string) =>
    apiPost<WebhookDeliveryView>(inLocale(locale, `/rest/v1/webhooks/deliveries/${encodeURIComponent(id)}/resend`)),
};

/** The first message of a failed answer (a field's own message first), else `fallback`. */
export function messageOf(
  answer: { errors: { message: string; details?: { message: string }[] }[] },
  fallback: string,
) {
  const [error] = answer.errors;
  return error?.details?.[0]?.message || error?.message || fallback;
}

/** A failed answer of one call, passed on as the failure of the next (its data never read). */
export const failureOf = <T>(answer: ApiResult<unknown>): ApiResult<T> => ({ ...answer, data: undefined });
