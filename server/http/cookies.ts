// One request reads its Cookie header three or four times (session, CSRF, locale, consent);
// parsing it once and remembering the last header makes the later reads a map lookup.
let lastHeader: string | undefined;
let lastCookies = new Map<string, string>();

function parseCookies(header: string): Map<string, string> {
  if (header === lastHeader) return lastCookies;
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    // The first occurrence wins, as browsers send the most specific cookie first.
    if (cookies.has(name)) continue;
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: keep it as sent.
    }
    cookies.set(name, value);
  }
  lastHeader = header;
  lastCookies = cookies;
  return cookies;
}

/** Reads one cookie from a `Cookie` header; used where no framework context exists (static files, upgrades). */
export function readCookie(header: string | undefined | null, name: string): string | undefined {
  if (!header) return undefined;
  return parseCookies(header).get(name);
}
