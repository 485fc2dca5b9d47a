// A person's full name (the one on their identity document) and the payer name a buyer gives for
// a bank payment: the rules both sides check, and whether two names are the same person's. Names
// are compared leniently, as a seller would compare a bank statement with a passport: case,
// accents, punctuation and word order do not matter, and a middle name may be left out.

export const FULL_NAME_MAX = 100;

/** NFC, single spaces, trimmed. */
export function normalizeName(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** Letters (any script) with spaces, apostrophes, hyphens and dots between them; two letters at least. */
const NAME = /^\p{L}[\p{L}\p{M}'’.\- ]*$/u;

/** Why a name cannot be a person's full or payer name, or null when it can. */
export function nameIssue(name: string): 'name_required' | 'name_invalid' | null {
  const normalized = normalizeName(name);
  if (normalized === '') return 'name_required';
  const letters = normalized.match(/\p{L}/gu)?.length ?? 0;
  if (normalized.length > FULL_NAME_MAX || letters < 2 || !NAME.test(normalized)) return 'name_invalid';
  return null;
}

/** The words of a name without case, accents or punctuation: `José-María O'Neil` → jose, maria, oneil. */
function words(name: string): string[] {
  return normalizeName(name)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .split(/[\s-]+/)
    .filter(Boolean);
}

/**
 * Whether two names are the same person's: the same words in any order, or the shorter one's words
 * (two at least: a given name and a family name) all in the longer one (a middle name left out).
 */
export function sameName(a: string, b: string): boolean {
  const [shorter, longer] = [words(a), words(b)].sort((x, y) => x.length - y.length) as [string[], string[]];
  if (shorter.length === 0) return false;
  const pool = [...longer];
  for (const word of shorter) {
    const at = pool.indexOf(word);
    if (at === -1) return false;
    pool.splice(at, 1);
  }
  return shorter.length === longer.length || shorter.length >= 2;
}
