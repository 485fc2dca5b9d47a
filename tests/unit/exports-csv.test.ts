import { describe, expect, it } from 'vitest';
import { csvCell, csvHead, csvLine } from '../../server/services/exports/csv.ts';

// The CSV cells of a person's export (server/services/exports/csv.ts): RFC 4180 quoting, and
// OWASP's CSV-injection rule, so a chat line or a feedback text never runs as a formula.

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+31 6 1234', "'+31 6 1234"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\tTAB', "'\tTAB"],
    ['\rCR', `"'\rCR"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ["-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"],
  ])('escapes %j as a text cell', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['-0.00250000', '-0.00250000'],
    ['-12', '-12'],
    ['0.10000000', '0.10000000'],
    [42, '42'],
  ])('leaves the number %j a number', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('quotes commas, quotes and line breaks, and writes null as an empty cell', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain text')).toBe('plain text');
  });

  it('writes lines with CRLF and a header after a byte order mark', () => {
    expect(csvLine(['a', null, '=x'])).toBe("a,,'=x\r\n");
    expect(csvHead(['time', 'amount'])).toBe('\uFEFFtime,amount\r\n');
  });
});
