import type { ReactNode } from 'react';
import type { MessageParams } from './shared/i18n/interpolate.ts';
import { isolatedPieces, type Piece, piecesAround } from './shared/i18n/isolate.ts';

/**
 * A translated sentence whose values (names, amounts, payment methods) each sit in a <bdi>, so a
 * right-to-left sentence never moves a Latin name's punctuation to its other end (issue 22).
 */
export function tIsolated(
  t: (key: string, params?: MessageParams) => string,
  key: string,
  params: MessageParams,
): ReactNode {
  return rendered(isolatedPieces(t, key, params));
}

/** A sentence the server translated, each of its placeholders' `values` in a <bdi>. */
export function isolatedText(text: string, values: MessageParams): ReactNode {
  return rendered(piecesAround(text, Object.values(values)));
}

function rendered(pieces: Piece[]): ReactNode {
  return pieces.map((piece, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one sentence, in their order
    'text' in piece ? piece.text : <bdi key={i}>{piece.value}</bdi>,
  );
}
