import { bankDataByBLZ, bankDataByIBAN } from 'bankdata-germany';
import ibanToBicData from 'iban-to-bic/datasets/index.js';
import { bicCountry, checkIban, isValidRoutingNumber, sameInstitution } from './checks.ts';
import { CURATED_BANKS } from './curated-banks.ts';

// The bank directory, in memory from shipped offline data (docs/decisions/110-bank-directory.md):
// Germany's every bank by Bankleitzahl from bankdata-germany (the Bundesbank's list), the BIC behind
// a bank code of AT BE ES FR LU NL from iban-to-bic (national banks' and the ECB's lists), and the
// curated major banks of curated-banks.ts (US routing numbers among them). Nothing is read from the
// database: every test database and every process has the same directory at no cost.

export interface Bank {
  /** `DE-<Bankleitzahl>` or `<ISO>-<BIC8>`: what `bank_id` names. */
  id: string;
  countryIso: string;
  name: string;
  bic: string | null;
}

export interface IbanBank {
  iban: string;
  countryIso: string;
  bankCode: string | null;
  /** The bank's BIC when the data knows it, even when it knows no name. */
  bic: string | null;
  bank: Bank | null;
}

type Datasets = Record<string, Record<string, string>>;
const bicByBankCode = ibanToBicData as Datasets;

const curated = new Map<string, Bank[]>();
const curatedById = new Map<string, Bank>();
const byRouting = new Map<string, Bank>();
const byCode = new Map<string, Bank>();
for (const [iso, banks] of Object.entries(CURATED_BANKS)) {
  const list = banks.map((entry) => {
    const bank: Bank = { id: `${iso}-${entry.bic.slice(0, 8)}`, countryIso: iso, name: entry.name, bic: entry.bic };
    curatedById.set(bank.id, bank);
    for (const code of entry.codes ?? []) {
      if (iso === 'US') byRouting.set(code, bank);
      else byCode.set(`${iso}:${code}`, bank);
    }
    return bank;
  });
  curated.set(
    iso,
    list.sort((a, b) => a.name.localeCompare(b.name)),
  );
}

const germanBank = (blz: string): Bank | null => {
  const found = bankDataByBLZ(blz);
  return found ? { id: `DE-${found.blz}`, countryIso: 'DE', name: found.bankName, bic: found.bic ?? null } : null;
};

let germanList: Bank[] | undefined;
/** One entry per German bank name (its lowest Bankleitzahl): branches share their bank's name. */
function germanBanks(): Bank[] {
  if (!germanList) {
    const byName = new Map<string, Bank>();
    for (const blz of Object.keys(bicByBankCode.DE ?? {}).sort()) {
      const bank = germanBank(blz);
      if (bank && !byName.has(bank.name)) byName.set(bank.name, bank);
    }
    germanList = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name, 'de'));
  }
  return germanList;
}

/** Whether the directory names banks of this country (ISO 3166-1 alpha-2). */
export function hasBankData(countryIso: string): boolean {
  return countryIso === 'DE' || curated.has(countryIso);
}

/**
 * Whether a person may keep bank accounts (the current user's `isCurrentUserEligibleForBanks`):
 * their country is one the directory names banks of, and their phone is verified.
 */
export function isEligibleForBanks({
  countryIso,
  isPhoneVerified,
}: {
  countryIso: string | null | undefined;
  isPhoneVerified: boolean;
}): boolean {
  return Boolean(countryIso) && isPhoneVerified && hasBankData(countryIso as string);
}

export function banksOf(countryIso: string): Bank[] {
  return countryIso === 'DE' ? germanBanks() : (curated.get(countryIso) ?? []);
}

export function bankById(id: string): Bank | null {
  const german = /^DE-(\d{8})$/.exec(id);
  if (german) return germanBank(german[1] as string);
  return curatedById.get(id) ?? null;
}

/** A curated bank of the country with this BIC (its first six letters: bank and country). */
function curatedByBic(countryIso: string, bic: string): Bank | null {
  return curated.get(countryIso)?.find((bank) => bank.bic !== null && sameInstitution(bank.bic, bic)) ?? null;
}

/** What the directory knows of a valid IBAN's bank; null for an invalid IBAN. */
export function bankOfIban(input: string): IbanBank | null {
  const checked = checkIban(input);
  if (!checked.ok) return null;
  const { iban, countryIso, bankCode } = checked;
  if (countryIso === 'DE') {
    const found = bankDataByIBAN(iban);
    const bank = found ? germanBank(found.blz) : null;
    return { iban, countryIso, bankCode, bic: bank?.bic ?? null, bank };
  }
  const code = bankCode ?? '';
  const knownBic = bicByBankCode[countryIso]?.[code] ?? null;
  const bank =
    byCode.get(`${countryIso}:${code}`) ??
    (knownBic ? curatedByBic(countryIso, knownBic) : null) ??
    // GB, NL, IE…: the IBAN's bank code is the BIC's first four letters.
    (/^[A-Z]{4}$/.test(code) ? (curated.get(countryIso)?.find((b) => b.bic?.startsWith(code)) ?? null) : null);
  const bic = knownBic ?? bank?.bic ?? null;
  return { iban, countryIso, bankCode, bic: bic && bicCountry(bic) === countryIso ? bic : null, bank };
}

/** The bank behind an ABA routing number, when it is one of the curated ones; null for an invalid number. */
export function bankOfRoutingNumber(routingNumber: string): { valid: boolean; bank: Bank | null } {
  if (!isValidRoutingNumber(routingNumber)) return { valid: false, bank: null };
  return { valid: true, bank: byRouting.get(routingNumber) ?? null };
}
