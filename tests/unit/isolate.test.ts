import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/lib/shared/i18n/interpolate.ts';
import { isolatedHtml, isolatedPieces, piecesAround } from '../../src/lib/shared/i18n/isolate.ts';

// Values in translated sentences, isolated for right-to-left readers (decision 132).

const catalogue: Record<string, string> = {
  payer: 'שם המשלם: {name}',
  buying: 'קונה {amount} מ־{username}',
  twice: '{name} and {name}',
};
const t = (key: string, params?: Record<string, string | number>) => interpolate(catalogue[key] ?? key, params);

describe('isolated values', () => {
  it('splits a sentence into its text and its values, in order', () => {
    expect(isolatedPieces(t, 'payer', { name: 'Adaeze O.' })).toEqual([{ text: 'שם המשלם: ' }, { value: 'Adaeze O.' }]);
    expect(isolatedPieces(t, 'buying', { amount: '0.001 BTC', username: 'vendor' })).toEqual([
      { text: 'קונה ' },
      { value: '0.001 BTC' },
      { text: ' מ־' },
      { value: 'vendor' },
    ]);
    expect(isolatedPieces(t, 'twice', { name: 'Ana' })).toEqual([
      { value: 'Ana' },
      { text: ' and ' },
      { value: 'Ana' },
    ]);
  });

  it('writes HTML with each value escaped in a bdi', () => {
    expect(isolatedHtml(t, 'payer', { name: '<b>Adaeze O.</b>' })).toBe(
      'שם המשלם: <bdi>&lt;b&gt;Adaeze O.&lt;/b&gt;</bdi>',
    );
  });

  it('finds the values in a sentence written elsewhere, the longest first', () => {
    expect(piecesAround('Ana Maria started a trade with you', ['Ana', 'Ana Maria'])).toEqual([
      { value: 'Ana Maria' },
      { text: ' started a trade with you' },
    ]);
    expect(piecesAround('Paid 1.5 (x)', ['1.5', '(x)'])).toEqual([
      { text: 'Paid ' },
      { value: '1.5' },
      { text: ' ' },
      { value: '(x)' },
    ]);
    expect(piecesAround('Nothing to isolate', [''])).toEqual([{ text: 'Nothing to isolate' }]);
  });
});
