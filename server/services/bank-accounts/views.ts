import type {
  BankAccountView,
  SwiftAddressView,
  TradeBankAccountView,
} from '../../../src/lib/shared/views/bank-accounts.ts';
import { bankView } from '../banks/banks.ts';
import { friendlyIban, masked } from '../banks/checks.ts';
import { bankById } from '../banks/directory.ts';
import type { BankAccountRow, TradeBankAccountRow } from './repository.ts';

// The owner's view of a saved account (in full: it is theirs; masked too, for lists) and the
// trade's view of a shared copy (spec section 3; src/lib/shared/views/bank-accounts.ts).

const swiftOf = (row: BankAccountRow): SwiftAddressView | null =>
  row.kind === 'swift'
    ? {
        residency: row.swiftResidency,
        state: row.swiftState,
        city: row.swiftCity,
        zip: row.swiftZip,
        address: row.swiftAddress,
      }
    : null;

export function accountView(row: BankAccountRow): BankAccountView {
  const bank = row.bankId ? bankById(row.bankId) : null;
  return {
    id: row.publicId,
    kind: row.kind,
    holderName: row.holderName,
    isPersonal: Boolean(row.isPersonal),
    country: { id: Number(row.countryId), iso: row.countryIso, name: row.countryName },
    fiatCurrency: { id: Number(row.fiatCurrencyId), code: row.fiatCode },
    iban: row.iban ? friendlyIban(row.iban) : null,
    ibanMasked: row.iban ? `${row.iban.slice(0, 4)} ${masked(row.iban.slice(4))}` : null,
    accountNumber: row.accountNumber,
    accountNumberMasked: row.accountNumber ? masked(row.accountNumber) : null,
    routingNumber: row.routingNumber,
    bank: bank ? bankView(bank) : null,
    swiftCode: row.swiftCode,
    swift: swiftOf(row),
    createdAt: Math.floor(Number(row.createdAt) / 1000),
    updatedAt: Math.floor(Number(row.updatedAt) / 1000),
  };
}

/** The copy for the trade: what the buyer needs to pay, and the SWIFT group as it was saved. */
export function snapshotOf(row: BankAccountRow, tradeId: number, sharedBy: number, at: number) {
  const view = accountView(row);
  return {
    tradeId,
    bankAccountId: row.id,
    sharedBy,
    kind: row.kind,
    holderName: row.holderName,
    isPersonal: view.isPersonal ? 1 : 0,
    bankName: view.bank?.name ?? null,
    iban: row.iban,
    accountNumber: row.accountNumber,
    routingNumber: row.routingNumber,
    swiftCode: row.swiftCode,
    countryIso: row.countryIso,
    countryName: row.countryName,
    currencyCode: row.fiatCode,
    swiftAddress: view.swift ? JSON.stringify(view.swift) : null,
    sharedAt: at,
  };
}

export function tradeAccountView(row: TradeBankAccountRow): TradeBankAccountView {
  return {
    kind: row.kind,
    holderName: row.holderName,
    isPersonal: Boolean(row.isPersonal),
    bankName: row.bankName,
    iban: row.iban ? friendlyIban(row.iban) : null,
    accountNumber: row.accountNumber,
    routingNumber: row.routingNumber,
    swiftCode: row.swiftCode,
    swift: row.swiftAddress ? (JSON.parse(row.swiftAddress) as SwiftAddressView) : null,
    country: { iso: row.countryIso, name: row.countryName },
    currency: row.currencyCode,
    sharedAt: Math.floor(Number(row.sharedAt) / 1000),
  };
}
