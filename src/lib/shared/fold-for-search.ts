/** Lower case without diacritics, so `sao` finds São Paulo and `zurich` finds Zürich. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}
