import { describe, expect, it } from 'vitest';
import { bicCountry, isValidRoutingNumber, normalizeBic } from '../../server/services/banks/checks.ts';
import { CURATED_BANKS } from '../../server/services/banks/curated-banks.ts';
import {
  bankById,
  bankOfIban,
  bankOfRoutingNumber,
  banksOf,
  hasBankData,
  isEligibleForBanks,
} from '../../server/services/banks/directory.ts';

// The bank directory's data (server/services/banks/directory.ts, curated-banks.ts): the curated
// list is well formed, ids are stable and unique, lookups answer from the shipped data.

describe('curated banks', () => {
  it('has only valid routing numbers and BICs of the country they are listed under', () => {
    const ids = new Set<string>();
    const routing = new Set<string>();
    for (const [iso, banks] of Object.entries(CURATED_BANKS)) {
      for (const bank of banks) {
        expect(normalizeBic(bank.bic), bank.name).toBe(bank.bic);
        expect(bicCountry(bank.bic), bank.name).toBe(iso);
        const id = `${iso}-${bank.bic.slice(0, 8)}`;
        expect(ids.has(id), id).toBe(false);
        ids.add(id);
        if (iso !== 'US') continue;
        expect(bank.codes?.length, bank.name).toBeGreaterThan(0);
        for (const code of bank.codes ?? []) {
          expect(isValidRoutingNumber(code), `${bank.name} ${code}`).toBe(true);
          expect(routing.has(code), code).toBe(false);
          routing.add(code);
        }
      }
    }
  });
});

describe('lookups', () => {
  it('names German banks by Bankleitzahl and others by their BIC', () => {
    expect(bankById('DE-37040044')).toEqual({
      id: 'DE-37040044',
      countryIso: 'DE',
      name: 'Commerzbank',
      bic: 'COBADEFFXXX',
    });
    expect(bankById('US-CHASUS33')).toMatchObject({ name: 'JPMorgan Chase Bank' });
    expect(bankById('DE-00000000')).toBeNull();
    expect(bankById('US-NOPEUS33')).toBeNull();
  });

  it('finds the bank of an IBAN through the national data, bank codes and BICs', () => {
    expect(bankOfIban('DE89370400440532013000')?.bank?.name).toBe('Commerzbank');
    expect(bankOfIban('GB29NWBK60161331926819')?.bank?.name).toBe('NatWest');
    expect(bankOfIban('FR1420041010050500013M02606')?.bank?.name).toBe('La Banque Postale');
    expect(bankOfIban('NL91ABNA0417164300')?.bank?.name).toBe('ABN AMRO');
    expect(bankOfIban('BE68539007547034')).toMatchObject({ countryIso: 'BE', bank: null });
    expect(bankOfIban('DE89370400440532013001')).toBeNull();
  });

  it('finds US banks by routing number', () => {
    expect(bankOfRoutingNumber('021000021')).toMatchObject({ valid: true, bank: { id: 'US-CHASUS33' } });
    expect(bankOfRoutingNumber('011000015')).toEqual({ valid: true, bank: null });
    expect(bankOfRoutingNumber('021000022')).toEqual({ valid: false, bank: null });
  });

  it('lists banks per country, sorted by name', () => {
    const us = banksOf('US').map((bank) => bank.name);
    expect(us).toEqual([...us].sort((a, b) => a.localeCompare(b)));
    expect(banksOf('DE').length).toBeGreaterThan(1000);
    expect(banksOf('CA')).toEqual([]);
  });
});

describe('who may keep bank accounts', () => {
  it('is a person whose country has bank data and whose phone is verified', () => {
    for (const iso of ['US', 'DE', 'FR', 'ES', 'NL', 'GB', 'IT']) expect(hasBankData(iso), iso).toBe(true);
    expect(hasBankData('CA')).toBe(false);
    expect(isEligibleForBanks({ countryIso: 'DE', isPhoneVerified: true })).toBe(true);
    expect(isEligibleForBanks({ countryIso: 'DE', isPhoneVerified: false })).toBe(false);
    expect(isEligibleForBanks({ countryIso: 'CA', isPhoneVerified: true })).toBe(false);
    expect(isEligibleForBanks({ countryIso: null, isPhoneVerified: true })).toBe(false);
  });
});
