import { type ApiResult, apiRequest, NETWORK_ERROR_CODE, TIMEOUT_ERROR_CODE } from '../../lib/api-client.ts';
import { ADMIN_TEXT } from './admin-text.ts';

// The money screens' calls to the console's API (/rest/v1/operators/…, server/routes/operators.ts):
// JSON with the CSRF token (src/lib/api-client.ts), and a failure as the one sentence the screen
// shows — the server's own message (its code's meaning in plain words), else a general one.

export const OPERATORS_API = '/rest/v1/operators';

export function failureOf(result: ApiResult<unknown>): string {
  if (result.errors.some((e) => e.code === NETWORK_ERROR_CODE || e.code === TIMEOUT_ERROR_CODE))
    return ADMIN_TEXT.error.network;
  // A validation error's message already names its first field and says what is wrong with it.
  return result.errors[0]?.message || ADMIN_TEXT.error.generic;
}

export function operatorGet<T>(path: string): Promise<ApiResult<T>> {
  return apiRequest<T>('GET', `${OPERATORS_API}${path}`);
}

/** A change: `{ reason, code }` and anything else the route takes; `{ error }` when refused. */
export async function operatorPost<T>(
  path: string,
  body: Record<string, unknown> = {},
): Promise<{ data?: T; error?: string; code?: string }> {
  const result = await apiRequest<T>('POST', `${OPERATORS_API}${path}`, body);
  if (result.ok) return { data: result.data as T };
  return { error: failureOf(result), code: result.errors[0]?.code };
}
