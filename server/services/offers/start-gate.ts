import { countryBlocks } from './country-rules.ts';
import type { OfferView } from './offer-view.ts';

// Whether a person may start a trade on an offer, and if not, every reason why (spec section 5,
// "Starting to view an offer is blocked when", in its order), so the offer page can say what to
// do about each. The trade start (trades issue) asks the same question before it locks escrow.

export type StartBlockCode =
  | 'sign_in_required'
  | 'own_offer'
  | 'offer_inactive'
  | 'vendor_no_coins'
  | 'account_restricted'
  | 'email_not_verified'
  | 'country_not_allowed'
  | 'gray_country_id_required'
  | 'currency_country_mismatch'
  | 'min_past_trades'
  | 'trusted_only'
  | 'owner_offline'
  | 'opponent_blocked'
  | 'trading_limit';

export interface StartBlock {
  code: StartBlockCode;
  params?: Record<string, string | number>;
}

/** English of each reason; `errors.start_block_<code>` translates it. */
export const BLOCK_MESSAGES: Record<StartBlockCode, string> = {
  sign_in_required: 'Sign in to trade on this offer.',
  own_offer: 'This is your own offer.',
  offer_inactive: 'This offer is switched off.',
  vendor_no_coins:
    'The vendor does not have enough {crypto} for this offer right now, so no trade can start. Try another offer.',
  account_restricted: 'Your account cannot trade at the moment. Contact support.',
  email_not_verified: 'Confirm your e-mail address to start trading.',
  country_not_allowed: 'This offer is not available in your country.',
  gray_country_id_required: 'Verify your identity to sell to this offer from your country.',
  currency_country_mismatch: 'This offer only trades with people whose country uses {currency}.',
  min_past_trades: 'This offer needs {required} completed trades; you have {completed}.',
  trusted_only: 'This offer is only for people the vendor trusts.',
  owner_offline: 'The vendor has not been online recently.',
  opponent_blocked: 'You cannot trade with this vendor.',
  trading_limit:
    'Your trading limit at level {level} has {unused} {currency} left, less than this offer’s minimum. Verify more of your account to raise it.',
};

/** What the gate knows of the person looking at the offer; null for a visitor. */
export interface Viewer {
  id: number;
  username: string;
  status: 'active' | 'suspended' | 'banned';
  isEmailVerified: boolean;
  isIdVerified: boolean;
  /** The person's country (settings, else where the request comes from), ISO alpha-2. */
  countryIso: string | null;
  /** Where the request comes from (its address, else DEFAULT_COUNTRY), ISO alpha-2. */
  requestCountryIso: string | null;
  completedTrades: number;
  /** The owner marked this person as trusted. */
  trustedByOwner: boolean;
  /** Either of the two blocked the other. */
  blockedEitherWay: boolean;
}

export function startBlocks(
  offer: OfferView,
  viewer: Viewer | null,
  {
    ownerOnline,
    countryCurrency,
    allowance,
  }: {
    ownerOnline: boolean;
    countryCurrency: (iso: string) => string | undefined;
    /** What the viewer may still trade in the rolling 30 days, in the offer's currency (verification). */
    allowance?: { level: number; unused: number } | undefined;
  },
): StartBlock[] {
  const blocks: StartBlock[] = [];
  if (offer.status !== 'active') blocks.push({ code: 'offer_inactive' });
  // Decision 121: the owner's wallet cannot cover even the smallest trade (the owner sees why in
  // My offers and the editor, not here).
  const isOwner = viewer !== null && viewer.username === offer.owner.username;
  if (offer.noCoins && !isOwner) blocks.push({ code: 'vendor_no_coins', params: { crypto: offer.cryptoCurrency } });
  if (!viewer) {
    blocks.push({ code: 'sign_in_required' });
    if (!ownerOnline) blocks.push({ code: 'owner_offline' });
    return blocks;
  }
  if (isOwner) {
    blocks.push({ code: 'own_offer' });
    return blocks;
  }
  if (viewer.status !== 'active') blocks.push({ code: 'account_restricted' });
  if (!viewer.isEmailVerified) blocks.push({ code: 'email_not_verified' });

  blocks.push(...countryBlocks(offer, viewer, countryCurrency));
  if (viewer.completedTrades < offer.requireMinPastTrades) {
    blocks.push({
      code: 'min_past_trades',
      params: { required: offer.requireMinPastTrades, completed: viewer.completedTrades },
    });
  }
  if (offer.showOnlyTrustedUser && !viewer.trustedByOwner) blocks.push({ code: 'trusted_only' });
  if (!ownerOnline) blocks.push({ code: 'owner_offline' });
  if (viewer.blockedEitherWay) blocks.push({ code: 'opponent_blocked' });
  // Not even the smallest trade fits in what is left of the verification level's limit (without a
  // verified e-mail the limit is zero, and email_not_verified already says what to do).
  if (viewer.isEmailVerified && allowance && allowance.unused < offer.fiatLimitMin) {
    blocks.push({
      code: 'trading_limit',
      params: { level: allowance.level, unused: allowance.unused.toFixed(2), currency: offer.fiatCurrency },
    });
  }
  return blocks;
}
