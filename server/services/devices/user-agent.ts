// A small user-agent reader for the device-review e-mail and page: enough to tell a person
// "Firefox 128 on Windows", not a full UA database. Order matters, because browsers borrow each
// other's tokens: Edge and Opera say "Chrome", Chrome says "Safari", iOS says "like Mac OS X".

export interface UserAgentInfo {
  browser: string | null;
  version: string | null;
  os: string | null;
}

/** [name, pattern whose first group is the version], most specific first. */
const BROWSERS: [string, RegExp][] = [
  ['Edge', /\b(?:Edg|Edge|EdgA|EdgiOS)\/([\d.]+)/],
  ['Opera', /\b(?:OPR|OPT|Opera)\/([\d.]+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS|HeadlessChrome)\/([\d.]+)/],
  // Safari's own version is in `Version/`; the `Safari/` token is the WebKit build.
  ['Safari', /\bVersion\/([\d.]+)(?:\s+Mobile\/\w+)?\s+Safari\//],
];

const SYSTEMS: [string, RegExp][] = [
  ['Windows', /\bWindows\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Android', /\bAndroid\b/],
  ['Linux', /\bLinux\b|\bX11\b/],
];

export function parseUserAgent(userAgent: string): UserAgentInfo {
  let browser: string | null = null;
  let version: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = name;
      version = match[1] ?? null;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null;
  return { browser, version, os };
}
