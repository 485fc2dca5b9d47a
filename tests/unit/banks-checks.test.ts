import { describe, expect, it } from 'vitest';
import {
  accountKindOf,
  checkIban,
  compactAccountNumber,
  friendlyIban,
  isValidRoutingNumber,
  masked,
  normalizeBic,
  sameInstitution,
} from '../../server/services/banks/checks.ts';

// The pure checks of bank details (server/services/banks/checks.ts): IBAN, ABA routing number,
// SWIFT/BIC, the kind of account a country uses, masking.

describe('checkIban', () => {
  it('accepts valid IBANs of several countries as typed, with their bank codes', () => {
    expect(checkIban('de89 3704 0044 0532 0130 00')).toEqual({
      ok: true,
      iban: 'DE89370400440532013000',
      countryIso: 'DE',
      bankCode: '37040044',
      branchCode: null,
    });
    expect(checkIban('GB29-NWBK-6016-1331-9268-19')).toMatchObject({ ok: true, countryIso: 'GB', bankCode: 'NWBK' });
    expect(checkIban('FR1420041010050500013M02606')).toMatchObject({ ok: true, bankCode: '20041' });
    expect(checkIban('ES9121000418450200051332')).toMatchObject({ ok: true, bankCode: '2100' });
    expect(checkIban('NL91ABNA0417164300')).toMatchObject({ ok: true, bankCode: 'ABNA' });
  });

  it('tells a wrong checksum from a wrong length and from what is no IBAN', () => {
    expect(checkIban('DE89370400440532013001')).toEqual({ ok: false, problem: 'invalid_checksum' });
    expect(checkIban('NL92ABNA0417164300')).toEqual({ ok: false, problem: 'invalid_checksum' });
    expect(checkIban('DE8937040044053201300')).toEqual({ ok: false, problem: 'not_correct_length' });
    expect(checkIban('DE893704004405320130000')).toEqual({ ok: false, problem: 'not_correct_length' });
    expect(checkIban('US89370400440532013000')).toEqual({ ok: false, problem: 'invalid_format' });
    expect(checkIban('')).toEqual({ ok: false, problem: 'invalid_format' });
    expect(checkIban('DE89 3704 0044 0532 0130 0€')).toEqual({ ok: false, problem: 'invalid_format' });
  });

  it('prints IBANs in groups of four', () => {
    expect(friendlyIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(friendlyIban('BE68539007547034')).toBe('BE68 5390 0754 7034');
  });
});

describe('isValidRoutingNumber', () => {
  it('checks the 3-7-1 weighted sum of nine digits', () => {
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('121000248')).toBe(true);
    expect(isValidRoutingNumber('011000015')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    expect(isValidRoutingNumber('02100002')).toBe(false);
    expect(isValidRoutingNumber('0210000210')).toBe(false);
    expect(isValidRoutingNumber('02100002A')).toBe(false);
  });
});

describe('normalizeBic', () => {
  it('takes 8 or 11 characters in any case and refuses the rest', () => {
    expect(normalizeBic(' cobadeff ')).toBe('COBADEFF');
    expect(normalizeBic('DEUTDEFF500')).toBe('DEUTDEFF500');
    expect(normalizeBic('DEUTDEF')).toBeNull();
    expect(normalizeBic('DEUTDEFF50')).toBeNull();
    expect(normalizeBic('1EUTDEFF')).toBeNull();
  });

  it('compares institutions by bank and country letters', () => {
    expect(sameInstitution('COBADEFFXXX', 'COBADEFF')).toBe(true);
    expect(sameInstitution('COBADEFF', 'COBADEBB')).toBe(true);
    expect(sameInstitution('COBADEFF', 'DEUTDEFF')).toBe(false);
  });
});

describe('accountKindOf', () => {
  it('uses routing numbers in the US, IBANs where the registry has them, SWIFT elsewhere', () => {
    expect(accountKindOf('US')).toBe('aba');
    for (const iso of ['DE', 'FR', 'ES', 'NL', 'GB', 'BR', 'SA']) expect(accountKindOf(iso), iso).toBe('iban');
    for (const iso of ['CA', 'AU', 'JP', 'MX']) expect(accountKindOf(iso), iso).toBe('swift');
  });
});

describe('masked and compactAccountNumber', () => {
  it('shows the last four characters only', () => {
    expect(masked('000123456789')).toBe('••••••••6789');
    expect(masked('12345')).toBe('•2345');
    expect(masked('123')).toBe('123');
  });

  it('drops spaces and dashes people type', () => {
    expect(compactAccountNumber('0001-2345 6789')).toBe('000123456789');
  });
});
