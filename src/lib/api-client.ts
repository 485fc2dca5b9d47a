// The browser side of the HTTP contract (spec section 7): JSON in and out, the CSRF cookie echoed
// in X-CSRF-Token on every call that changes something, errors as the envelope's list. Used by
// the progressive scripts and the React islands alike; nothing here throws for an HTTP error.

export interface ApiFieldIssue {
  field: string;
  message: string;
  key?: string;
}

export interface ApiError {
  code: string;
  message: string;
  field?: string;
  details?: ApiFieldIssue[];
}

export interface ApiResult<T> {
  ok: boolean;
  status: number;
  data: T | undefined;
  meta: Record<string, unknown> | undefined;
  errors: ApiError[];
  /** A 429's Retry-After, in seconds. */
  retryAfterSeconds?: number | undefined;
  /** The top-level `message` of answers shaped `{ status, message }` (spec section 7, send-phone-code). */
  message?: string | undefined;
}

/** Status 0: the request never got an answer (offline, aborted). */
export const NETWORK_ERROR_CODE = 'NETWORK_ERROR';

export function csrfToken(): string {
  return /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
}

/**
 * Prerendered pages set no cookie (they stay cacheable): the first call that changes something
 * fetches the CSRF token once, if no API answer has brought it yet.
 */
async function ensureCsrfToken(): Promise<string> {
  const token = csrfToken();
  if (token) return token;
  await fetch('/rest/v1/csrf-token', { credentials: 'same-origin' }).catch(() => undefined);
  return csrfToken();
}

export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  /** `csrf`: send the token on a GET too (reset-phone changes state on a GET, spec section 7). */
  init: { signal?: AbortSignal; csrf?: boolean } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' || init.csrf) headers['X-CSRF-Token'] = await ensureCsrfToken();
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(payload === undefined ? {} : { body: payload }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch {
    return {
      ok: false,
      status: 0,
      data: undefined,
      meta: undefined,
      errors: [{ code: NETWORK_ERROR_CODE, message: '' }],
    };
  }
  const json = (await response.json().catch(() => ({}))) as {
    data?: T;
    meta?: Record<string, unknown>;
    errors?: ApiError[];
    message?: unknown;
  };
  const retryAfter = Number(response.headers.get('Retry-After'));
  return {
    ok: response.ok,
    status: response.status,
    data: json.data,
    meta: json.meta,
    errors: json.errors ?? (response.ok ? [] : [{ code: 'HTTP_ERROR', message: '' }]),
    retryAfterSeconds: retryAfter > 0 ? retryAfter : undefined,
    message: typeof json.message === 'string' ? json.message : undefined,
  };
}

export const apiGet = <T>(path: string, init?: { signal?: AbortSignal; csrf?: boolean }) =>
  apiRequest<T>('GET', path, undefined, init);
export const apiPost = <T>(path: string, body?: unknown, init?: { signal?: AbortSignal }) =>
  apiRequest<T>('POST', path, body, init);

/** Per-field messages and the one message for the top of a form (see src/lib/server/page-api.ts). */
export function splitErrors(
  errors: readonly ApiError[],
  formFields: readonly string[],
): { summary: string | undefined; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  let summary: string | undefined;
  for (const error of errors) {
    const issues = error.details?.length ? error.details : [{ field: error.field ?? '', message: error.message }];
    for (const issue of issues) {
      if (formFields.includes(issue.field)) fields[issue.field] ??= issue.message;
      else summary ??= issue.message;
    }
  }
  return { summary, fields };
}
