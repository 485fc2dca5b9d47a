import { describe, expect, it } from 'vitest';
import { type StartTradeOffer, startTradeStep } from '../../src/lib/shared/start-trade-decision.ts';

const plain: StartTradeOffer = {
  type: 'sell',
  isGiftCard: false,
  isGold: false,
  requireVerifiedId: false,
  isSkipWarnings: true,
  isChargebackRisky: false,
};
const unverified = { isIdVerified: false };

describe('start-trade decision order (spec section 4)', () => {
  it('takes the first matching step', () => {
    const everything = {
      ...plain,
      type: 'buy' as const,
      isGiftCard: true,
      isGold: true,
      requireVerifiedId: true,
      isChargebackRisky: true,
    };
    expect(startTradeStep({ ...everything, type: 'sell' }, unverified)).toBe('choose_gift_cards');
    // Where the vendor buys, the vendor pays with the cards: the person who sells is not asked for any.
    expect(startTradeStep(everything, unverified)).toBe('payment_terms_warning');
    expect(startTradeStep({ ...everything, isGiftCard: false }, unverified)).toBe('payment_terms_warning');
    expect(startTradeStep({ ...everything, isGiftCard: false, isGold: false }, unverified)).toBe('ofac_warning');
    expect(startTradeStep({ ...everything, isGiftCard: false, isGold: false }, { isIdVerified: true })).toBe(
      'chargeback_warning',
    );
  });

  it('warns people who buy unless the vendor skips warnings', () => {
    expect(startTradeStep({ ...plain, isSkipWarnings: false }, unverified)).toBe('sell_offer_warning');
    expect(startTradeStep(plain, unverified)).toBe('start');
  });

  it('warns only people who sell about identity rules and chargebacks', () => {
    expect(startTradeStep({ ...plain, requireVerifiedId: true, isChargebackRisky: true }, unverified)).toBe('start');
    expect(startTradeStep({ ...plain, type: 'buy', isChargebackRisky: true }, unverified)).toBe('chargeback_warning');
    expect(startTradeStep({ ...plain, type: 'buy' }, unverified)).toBe('start');
  });
});
