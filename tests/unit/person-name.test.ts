import { describe, expect, it } from 'vitest';
import { nameIssue, normalizeName, sameName } from '../../src/lib/shared/person-name.ts';

describe('person names', () => {
  it('accepts names in any script and refuses what is not a name', () => {
    for (const name of [
      'Erika Mustermann',
      'José-María O’Neil',
      'Nguyễn Văn An',
      'Дмитрий Иванов',
      '王小明',
      'Jr. Smith',
    ]) {
      expect(nameIssue(name), name).toBeNull();
    }
    expect(nameIssue('   ')).toBe('name_required');
    for (const name of ['A', '12345', 'Erika <b>', 'x'.repeat(101), '-Erika'])
      expect(nameIssue(name), name).toBe('name_invalid');
    expect(normalizeName('  Erika \n Mustermann ')).toBe('Erika Mustermann');
  });

  it('matches the same person across case, accents, punctuation, order and a left-out middle name', () => {
    expect(sameName('Erika Mustermann', 'ERIKA MUSTERMANN')).toBe(true);
    expect(sameName('José María López', 'Jose Maria Lopez')).toBe(true);
    expect(sameName('Mustermann Erika', 'Erika Mustermann')).toBe(true);
    expect(sameName('Erika Mustermann', 'Erika Anna Mustermann')).toBe(true);
    expect(sameName("Sean O'Neil", 'Sean ONeil')).toBe(true);
  });

  it('tells different people apart', () => {
    expect(sameName('Erika Mustermann', 'Max Mustermann')).toBe(false);
    expect(sameName('Erika', 'Erika Mustermann')).toBe(false);
    expect(sameName('Erika Erika', 'Erika Mustermann')).toBe(false);
    expect(sameName('', 'Erika Mustermann')).toBe(false);
  });
});
