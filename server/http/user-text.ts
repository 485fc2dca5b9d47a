// What people write reaches other people: chat, bio, offer terms, payment details, feedback,
// dispute text. Invisible format characters let one string look like another (a bidi override
// shows "exe.pdf" for "fdp.exe", a zero-width space splits a blocked word), so every string of
// every request body is normalised here, once, before any route reads it (request-body.ts).

/**
 * Invisible format (Cf) and control (Cc) characters, except the ones real text needs: tab and
 * line breaks, and the zero-width joiner and non-joiner (emoji sequences, Persian, Indic scripts).
 * Cf covers the bidi embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, the
 * marks U+200E/U+200F/U+061C, zero-width space U+200B, word joiner U+2060, BOM U+FEFF and the
 * tag characters.
 */
const INVISIBLE = /(?![\t\n\r\u200C\u200D])[\p{Cf}\p{Cc}]/gu;

/** Any character that can change under NFC or be stripped: everything outside printable ASCII. */
const MAYBE_CHANGES = /[^\x20-\x7E\t\n\r]/;

/** NFC, without invisible format and control characters. */
export function normalizeUserText(text: string): string {
  if (!MAYBE_CHANGES.test(text)) return text;
  return text.normalize('NFC').replace(INVISIBLE, '');
}

/**
 * Secrets are compared byte for byte with what was stored at the time they were set; normalising
 * them now would lock out the rare person whose password holds such a character.
 */
export function isSecretField(name: string): boolean {
  return /password/i.test(name);
}

/** No form or API call nests deeper; deeper input is refused rather than walked. */
export const MAX_JSON_DEPTH = 32;

export class TooDeepError extends Error {}

/**
 * Every string of a parsed JSON value, normalised; keys too. Returns the same value when nothing
 * changed; throws TooDeepError past MAX_JSON_DEPTH levels.
 */
export function normalizeJsonValue(value: unknown, key = '', depth = 0): unknown {
  if (typeof value === 'string') return isSecretField(key) ? value : normalizeUserText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) throw new TooDeepError();
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = normalizeJsonValue(item, key, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const cleanName = normalizeUserText(name);
    const next = normalizeJsonValue(item, name, depth + 1);
    if (next !== item || cleanName !== name) changed = true;
    out[cleanName] = next;
  }
  return changed ? out : value;
}
