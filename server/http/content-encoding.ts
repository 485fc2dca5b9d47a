// Which content coding an answer takes, from the request's Accept-Encoding: one rule for the
// prebuilt variants of static files (static-files.ts) and the pages compressed as they are sent
// (compression.ts), so both answer the same client the same way.

/** `br` when the client takes it, else `gzip`, else none; `q=0` refuses an encoding. */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    quality.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: string) => (quality.get(name) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}
