// Where to go after signing in: only a path on this site. `//evil.example` and `/\evil.example`
// are other sites to a browser, and URL parsers drop control characters, turning `/\t/x` into
// `//x`. Shared by the API (accounts service) and the pages that pass `back` on.

export function safeBackPath(back: string | null | undefined, fallback = '/'): string {
  if (!back?.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return fallback;
  if ([...back].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return fallback;
  return back;
}
