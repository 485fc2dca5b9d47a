// CSV as RFC 4180 writes it (comma, CRLF, a field quoted when it holds a comma, quote or line
// break, quotes doubled), made safe to open in a spreadsheet (OWASP "CSV injection"): a cell that
// begins with = + - @, a tab or a carriage return is prefixed with a single quote, so no
// spreadsheet reads it as a formula. A plain decimal number such as -0.00250000 is left as it is:
// it is a number to every spreadsheet, never a formula, and the ledger's debits must stay numbers.

export type Cell = string | number | null;

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: formula-safe, then quoted when RFC 4180 asks for it. Null is an empty cell. */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line with its CRLF. */
export const csvLine = (cells: readonly Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** What starts every CSV file: a byte order mark, so spreadsheets read UTF-8, and the header line. */
export const csvHead = (columns: readonly string[]) => `\uFEFF${csvLine(columns)}`;
