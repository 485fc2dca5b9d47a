// The error envelope of the HTTP contract as tests read it: `{ errors: [{ code, message, field?,
// details? }] }` (server/http/errors.ts writes it).

export interface ApiErrorEntry {
  code: string;
  message: string;
  field?: string;
  details?: { field: string; message: string; key?: string }[];
}

/**
 * The answer's first error, with the envelope's `meta` beside it; a test that asks for the error
 * of an answer without one fails here.
 */
export async function errorOf(res: Response): Promise<ApiErrorEntry & { meta?: Record<string, unknown> }> {
  const body = (await res.json()) as { errors?: ApiErrorEntry[]; meta?: Record<string, unknown> };
  const error = body.errors?.[0];
  if (!error) throw new Error(`no error in the answer (${res.status}): ${JSON.stringify(body).slice(0, 200)}`);
  return body.meta === undefined ? error : { ...error, meta: body.meta };
}
