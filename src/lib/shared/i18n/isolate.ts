import type { MessageParams } from './interpolate.ts';

// Values inside translated sentences, isolated for right-to-left readers (issue 22): a Latin
// name such as "Adaeze O." in a Hebrew sentence keeps its full stop on its own side only inside
// its own bidirectional island, a <bdi>. The translator fills each placeholder with a marker,
// the sentence is split at the markers, and each value goes back in as an isolated piece: the
// islands render the pieces as <bdi> elements (src/lib/isolated.tsx), pages as HTML (below).

type Translate<K extends string> = (key: K, params?: MessageParams) => string;

/** A translated sentence in pieces: text as it is, and each value to isolate. */
export type Piece = { text: string } | { value: string };

const MARKER = /\uE000(\d+)\uE001/;

export function isolatedPieces<K extends string>(t: Translate<K>, key: K, params: MessageParams): Piece[] {
  const values = Object.values(params).map(String);
  const marked = Object.fromEntries(Object.keys(params).map((name, i) => [name, `\uE000${i}\uE001`]));
  return t(key, marked)
    .split(MARKER)
    .map((part, i) => (i % 2 === 0 ? { text: part } : { value: values[Number(part)] ?? '' }))
    .filter((piece) => !('text' in piece) || piece.text !== '');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The sentence as HTML, each value escaped inside a <bdi> (for `set:html` on pages). */
export function isolatedHtml<K extends string>(t: Translate<K>, key: K, params: MessageParams): string {
  return isolatedPieces(t, key, params)
    .map((piece) => ('text' in piece ? escapeHtml(piece.text) : `<bdi>${escapeHtml(piece.value)}</bdi>`))
    .join('');
}

/**
 * A sentence already translated elsewhere (a notification the server wrote) in pieces, each
 * occurrence of one of `values` (its placeholders' values) to isolate.
 */
export function piecesAround(text: string, values: readonly (string | number)[]): Piece[] {
  const wanted = [...new Set(values.map(String).filter((value) => value.trim() !== ''))].sort(
    (a, b) => b.length - a.length,
  );
  if (wanted.length === 0) return [{ text }];
  const escaped = wanted.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text
    .split(new RegExp(`(${escaped.join('|')})`))
    .map((part, i) => (i % 2 === 0 ? { text: part } : { value: part }))
    .filter((piece) => !('text' in piece) || piece.text !== '');
}
