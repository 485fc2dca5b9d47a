import type { BankAccountView, TradeBankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import type { TradeView } from './trade-logic.ts';

// The rules of a bank-transfer trade's payment details without React (unit-tested in
// tests/unit/bank-details.test.ts): the lines a shared account shows, which saved accounts the
// seller may share (the trade's currency only: the buyer pays in it), and what the page says when
// there are no payment details at all.

export type BankField =
  | 'holder'
  | 'bank'
  | 'iban'
  | 'accountNumber'
  | 'routingNumber'
  | 'swiftCode'
  | 'address'
  | 'country'
  | 'currency';

export interface BankLine {
  field: BankField;
  /** As shown: an IBAN in groups of four. */
  shown: string;
  /** As copied: what a banking app's form takes (an IBAN without spaces). */
  copied: string;
}

/** An IBAN in groups of four, as printed on bank statements. */
export const ibanGroups = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

/** An international account's postal address on one line, its empty parts left out. */
function addressOf(swift: TradeBankAccountView['swift']): string {
  if (!swift) return '';
  const place = [swift.zip, swift.city].filter(Boolean).join(' ');
  return [swift.address, place, swift.state, swift.residency].filter(Boolean).join(', ');
}

/** The shared account's lines in the order a transfer form asks for them; empty ones left out. */
export function bankLines(account: TradeBankAccountView): BankLine[] {
  const line = (field: BankField, value: string | null | undefined, shown = value): BankLine[] =>
    value ? [{ field, shown: shown ?? value, copied: value }] : [];
  const iban = account.iban?.replace(/\s+/g, '');
  return [
    ...line('holder', account.holderName),
    ...line('bank', account.bankName),
    ...line('iban', iban, iban && ibanGroups(iban)),
    ...line('accountNumber', account.accountNumber),
    ...line('routingNumber', account.routingNumber),
    ...line('swiftCode', account.swiftCode),
    ...(account.kind === 'swift' ? line('address', addressOf(account.swift)) : []),
    ...line('country', account.country.name || account.country.iso),
    ...line('currency', account.currency),
  ];
}

export interface ShareChoice {
  account: BankAccountView;
  /** In the trade's currency: only those may be shared. */
  matches: boolean;
}

/** The seller's saved accounts, those in the trade's currency first. */
export function shareChoices(accounts: readonly BankAccountView[], currency: string): ShareChoice[] {
  const choices = accounts.map((account) => ({ account, matches: account.fiatCurrency.code === currency }));
  return [...choices.filter((c) => c.matches), ...choices.filter((c) => !c.matches)];
}

/** A saved account in one line for the chooser: holder, bank and the masked number. */
export function accountSummary(account: BankAccountView): string {
  const number = account.ibanMasked ?? account.accountNumberMasked ?? '';
  return [account.holderName, account.bank?.name, number].filter(Boolean).join(' · ');
}

/** The seller shares a saved account while a bank-transfer trade runs. */
export const canShareBankAccount = (trade: TradeView, running: boolean) =>
  running && trade.role === 'seller' && trade.isBankTransferTrade;

const hasNoDetails = (trade: TradeView) =>
  trade.paymentDetails !== null && trade.paymentDetails.trim() === '' && !trade.bankAccount;

/**
 * A gift-card trade is paid with the cards (its gift code check says how): without instructions,
 * requirements or a payer name its payment details would be an empty box, so there is none.
 */
export const nothingToShow = (trade: TradeView) =>
  trade.isGccTrade &&
  hasNoDetails(trade) &&
  trade.payerName === null &&
  trade.flow.state.beforeRevealPaymentDetails.length === 0 &&
  trade.flow.state.beforeMarkAsPaid.length === 0;

/**
 * What the reader is told when the trade has no payment details at all (no instructions and no
 * shared account), instead of an empty box; null when there are some, while they are hidden, and
 * in a gift-card trade (paid with the cards).
 */
export function emptyDetailsHint(trade: TradeView): string | null {
  if (!hasNoDetails(trade) || trade.isGccTrade) return null;
  if (trade.role === 'buyer') return 'trade.payment.emptyBuyer';
  if (trade.role === 'seller')
    return trade.isBankTransferTrade ? 'trade.payment.emptySellerBank' : 'trade.payment.emptySeller';
  return 'trade.payment.emptyModerator';
}
