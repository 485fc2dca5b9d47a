import { describe, expect, it } from 'vitest';
import {
  accountSummary,
  bankLines,
  canShareBankAccount,
  emptyDetailsHint,
  ibanGroups,
  nothingToShow,
  shareChoices,
} from '../../src/components/trade/bank-details.ts';
import type { TradeView } from '../../src/components/trade/trade-logic.ts';
import type { BankAccountView, TradeBankAccountView } from '../../src/lib/shared/views/bank-accounts.ts';

// A bank-transfer trade's payment details without React: the lines a shared account shows (and
// what is copied), which saved accounts the seller may share, and what each side is told while
// there are no payment details.

const shared = (overrides: Partial<TradeBankAccountView> = {}): TradeBankAccountView => ({
  kind: 'iban',
  holderName: 'Erika Mustermann',
  isPersonal: true,
  bankName: 'Commerzbank',
  iban: 'DE89370400440532013000',
  accountNumber: null,
  routingNumber: null,
  swiftCode: 'COBADEFFXXX',
  swift: null,
  country: { iso: 'DE', name: 'Germany' },
  currency: 'EUR',
  sharedAt: 1,
  ...overrides,
});

const saved = (id: string, code: string, overrides: Partial<BankAccountView> = {}): BankAccountView =>
  ({
    id,
    kind: 'iban',
    holderName: 'Erika Mustermann',
    fiatCurrency: { id: 1, code },
    ibanMasked: 'DE89 **** 3000',
    accountNumberMasked: null,
    bank: { id: 'DE-37040044', name: 'Commerzbank', bic: null, countryIso: 'DE' },
    ...overrides,
  }) as BankAccountView;

const trade = (overrides: Partial<TradeView>): TradeView =>
  ({ role: 'buyer', paymentDetails: '', bankAccount: null, isBankTransferTrade: true, ...overrides }) as TradeView;

describe('bankLines', () => {
  it('shows an IBAN in groups of four and copies it without spaces', () => {
    const lines = bankLines(shared());
    expect(lines.map((l) => l.field)).toEqual(['holder', 'bank', 'iban', 'swiftCode', 'country', 'currency']);
    expect(lines.find((l) => l.field === 'iban')).toEqual({
      field: 'iban',
      shown: 'DE89 3704 0044 0532 0130 00',
      copied: 'DE89370400440532013000',
    });
  });

  it('lists account and routing numbers of a US account, and an international account’s address', () => {
    const aba = bankLines(
      shared({ kind: 'aba', iban: null, accountNumber: '000123456789', routingNumber: '021000021' }),
    );
    expect(aba.map((l) => l.field)).toEqual([
      'holder',
      'bank',
      'accountNumber',
      'routingNumber',
      'swiftCode',
      'country',
      'currency',
    ]);
    const swift = bankLines(
      shared({
        kind: 'swift',
        iban: null,
        accountNumber: '1234567',
        swift: { residency: 'Canada', state: 'ON', city: 'Toronto', zip: 'M5J 2J5', address: '200 Bay Street' },
      }),
    );
    expect(swift.find((l) => l.field === 'address')?.shown).toBe('200 Bay Street, M5J 2J5 Toronto, ON, Canada');
  });

  it('groups an IBAN however it was spaced', () => {
    expect(ibanGroups('NL91 ABNA 0417164300')).toBe('NL91 ABNA 0417 1643 00');
  });
});

describe('shareChoices', () => {
  it('puts the accounts in the trade’s currency first and marks the others', () => {
    const choices = shareChoices([saved('a', 'USD'), saved('b', 'EUR')], 'EUR');
    expect(choices.map((c) => [c.account.id, c.matches])).toEqual([
      ['b', true],
      ['a', false],
    ]);
    expect(accountSummary(saved('b', 'EUR'))).toBe('Erika Mustermann · Commerzbank · DE89 **** 3000');
  });
});

describe('who is told what', () => {
  it('asks the buyer to wait or ask, and the seller to share, only while nothing is there', () => {
    expect(emptyDetailsHint(trade({}))).toBe('trade.payment.emptyBuyer');
    expect(emptyDetailsHint(trade({ role: 'seller' }))).toBe('trade.payment.emptySellerBank');
    expect(emptyDetailsHint(trade({ role: 'seller', isBankTransferTrade: false }))).toBe('trade.payment.emptySeller');
    expect(emptyDetailsHint(trade({ paymentDetails: '  ' }))).toBe('trade.payment.emptyBuyer');
    expect(emptyDetailsHint(trade({ paymentDetails: 'IBAN …' }))).toBeNull();
    expect(emptyDetailsHint(trade({ bankAccount: shared() }))).toBeNull();
    // Hidden until the proofs asked before reveal are in: the page says so instead.
    expect(emptyDetailsHint(trade({ paymentDetails: null }))).toBeNull();
  });

  it('says nothing of payment details in a gift-card trade, paid with the cards', () => {
    const flow: TradeView['flow'] = { step: 'done', state: { beforeRevealPaymentDetails: [], beforeMarkAsPaid: [] } };
    const cards = trade({ isGccTrade: true, isBankTransferTrade: false, payerName: null, flow });
    expect(emptyDetailsHint(cards)).toBeNull();
    expect(nothingToShow(cards)).toBe(true);
    expect(nothingToShow(trade({ ...cards, paymentDetails: 'Add your cards, then mark the trade paid.' }))).toBe(false);
    expect(nothingToShow(trade({ isGccTrade: false, payerName: null, flow }))).toBe(false);
  });

  it('lets only the seller of a running bank-transfer trade share', () => {
    expect(canShareBankAccount(trade({ role: 'seller' }), true)).toBe(true);
    expect(canShareBankAccount(trade({ role: 'seller' }), false)).toBe(false);
    expect(canShareBankAccount(trade({ role: 'buyer' }), true)).toBe(false);
    expect(canShareBankAccount(trade({ role: 'seller', isBankTransferTrade: false }), true)).toBe(false);
  });
});
