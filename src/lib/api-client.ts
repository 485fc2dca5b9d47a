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
/** Status 0: no answer within the time-out (spec section 8, "A timeout is a timeout error"). */
export const TIMEOUT_ERROR_CODE = 'TIMEOUT_ERROR';

/**
 * How long a call may wait for its answer (decision 129): JSON calls 30 s; uploads (a FormData
 * body) the spec's load time-out of 120 s, as a photo on a slow line takes longer.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * The timeout error in the page's language: Base.astro writes it on `#transport-errors`, so
 * every island and script shows the same words without carrying them as a prop.
 */
export function timeoutMessage(): string {
  if (typeof document === 'undefined') return '';
  return document.getElementById('transport-errors')?.dataset.timeout ?? '';
}

/** A signal that aborts when the caller's does, or after `ms`; `timedOut()` tells which. */
export function withTimeout(
  signal: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; timedOut(): boolean; clear(): void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  const forward = () => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}

const failed = (code: string, message: string) => ({
  ok: false,
  status: 0,
  data: undefined,
  meta: undefined,
  errors: [{ code, message }],
});

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
  const deadline = withTimeout(init.signal, body instanceof FormData ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  let response: Response;
  let json: { data?: T; meta?: Record<string, unknown>; errors?: ApiError[]; message?: unknown };
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      signal: deadline.signal,
      ...(payload === undefined ? {} : { body: payload }),
    });
    // The body counts too: an answer whose body never ends is a timeout as well.
    json = (await response.json().catch((error: unknown) => {
      if (deadline.signal.aborted) throw error;
      return {};
    })) as typeof json;
  } catch {
    return deadline.timedOut() ? failed(TIMEOUT_ERROR_CODE, timeoutMessage()) : failed(NETWORK_ERROR_CODE, '');
  } finally {
    deadline.clear();
  }
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
