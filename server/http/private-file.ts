/**
 * Headers of an uploaded file served to the few who may read it (trade files, gift card pictures,
 * identity papers). Served as what we stored and nothing else: the type is fixed from the row
 * (never sniffed), a PDF is always a download so no viewer of ours renders it, the sandbox keeps
 * scripts off even for a browser that ignores the type, and only the reader's own browser may keep
 * a copy (identity papers: not even that, `cache: 'no-store'`).
 */
export function privateFileHeaders(contentType: string, name: string, cache: 'private' | 'no-store' = 'private') {
  const pdf = contentType === 'application/pdf';
  return {
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': `${pdf ? 'attachment' : 'inline'}; filename="${name}.${pdf ? 'pdf' : 'jpg'}"`,
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': cache === 'private' ? 'private, max-age=3600' : 'private, no-store',
  };
}
