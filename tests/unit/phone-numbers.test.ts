import { describe, expect, it } from 'vitest';
import { parsePhone } from '../../server/services/phone/numbers.ts';

describe('parsePhone', () => {
  it.each([
    ['+49 151 23456789', '+4915123456789'],
    ['+49 (151) 234-567-89', '+4915123456789'],
    ['+1 202-555-0123', '+12025550123'],
    ['+7 912 345 67 89', '+79123456789'],
    ['  +4915123456789  ', '+4915123456789'],
    ['0049 151 23456789', '+4915123456789'],
  ])('reads the international form %j as %s', (input, e164) => {
    expect(parsePhone(input)).toMatchObject({ ok: true, e164 });
  });

  it('reads the national form with the account’s country, in either case', () => {
    expect(parsePhone('0151 23456789', 'DE')).toEqual({
      ok: true,
      e164: '+4915123456789',
      international: '+49 1512 3456789',
    });
    expect(parsePhone('(202) 555-0123', 'us')).toMatchObject({ ok: true, e164: '+12025550123' });
    // An international number still wins over the country.
    expect(parsePhone('+44 20 7946 0958', 'DE')).toMatchObject({ ok: true, e164: '+442079460958' });
  });

  it('asks for the international form when the country is unknown', () => {
    for (const country of [undefined, null, 'ZZ']) {
      const parsed = parsePhone('0151 23456789', country);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/international form/);
    }
  });

  it.each([
    [''],
    ['12'],
    ['+49 12'],
    ['+49 151 2345678901234'],
    ['+999 1234567'],
    ['tel:+4915123456789'],
    ['+4915123456789 ext. 5'],
    ['+49 151 CALL-ME'],
    ['+49 151 23456789; DROP TABLE'],
    [`+49${'1'.repeat(40)}`],
  ])('refuses %j', (input) => {
    expect(parsePhone(input, 'DE').ok).toBe(false);
  });
});
