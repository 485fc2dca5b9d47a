import { toMinorUnits } from '../../lib/shared/money.ts';
import {
  COUNTRY_LIST_MAX,
  DEFAULT_PAYMENT_WINDOW,
  MARGIN_MAX_PERCENT,
  MARGIN_MIN_PERCENT,
  MIN_PAST_TRADES_MAX,
  OFFER_TAGS_MAX,
  PAYMENT_METHOD_LABEL_MAX_LENGTH,
  PREDEFINED_AMOUNTS_MAX,
  TERMS_MAX_LENGTH,
  TRADE_INSTRUCTIONS_MAX_LENGTH,
} from '../../lib/shared/offer-rules.ts';
import {
  MAX_TRADE_REQUIREMENTS,
  type OfferTradeRequirement,
  TRADE_REQUIREMENT_KINDS,
  type TradeRequirementStage,
} from '../../lib/shared/trade-requirements.ts';
import type { EditableOffer, EditorLocation } from './types.ts';

// The editor's state, the request body it becomes (POST/PUT /rest/v1/offers, the snake_case keys
// of server/services/offers/offer-input.ts) and the instant checks. The checks mirror the
// server's rules with the same bounds (src/lib/shared/offer-rules.ts) and the same error keys, so a
// message reads the same whether the browser or the server found the problem; the server stays
// the judge and its answer is mapped onto the same fields.

export interface OfferForm {
  type: 'buy' | 'sell';
  crypto: 'BTC' | 'USDT';
  currency: string;
  paymentMethod: string;
  priceType: 'margin' | 'fixed';
  margin: string;
  fixedPrice: string;
  fiatMin: string;
  fiatMax: string;
  predefined: string[];
  paymentWindow: number;
  label: string;
  terms: string;
  instructions: string;
  tags: string[];
  requireVerifiedId: boolean;
  showOnlyTrustedUser: boolean;
  bondRequired: boolean;
  currencyMatchesCountry: boolean;
  minPastTrades: string;
  newBuyerMax: string;
  isPubliclyVisible: boolean;
  /** Gold terms: the partner accepts the offer's terms before starting (spec section 4). */
  isGold: boolean;
  /** Buyers start without the sell-offer warning; only sell offers have it (decision 128). */
  isSkipWarnings: boolean;
  /** Proofs the partner uploads during the trade. */
  requirements: OfferTradeRequirement[];
  allowedCountries: string[];
  blockedCountries: string[];
  location: EditorLocation | null;
}

/** A problem with one field: the API's field name, and the `errors.<key>` message with its values. */
export interface FormIssue {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export function newOfferForm(currency: string): OfferForm {
  return {
    type: 'sell',
    crypto: 'BTC',
    currency,
    paymentMethod: '',
    priceType: 'margin',
    margin: '0',
    fixedPrice: '',
    fiatMin: '',
    fiatMax: '',
    predefined: [],
    paymentWindow: DEFAULT_PAYMENT_WINDOW,
    label: '',
    terms: '',
    instructions: '',
    tags: [],
    requireVerifiedId: false,
    showOnlyTrustedUser: false,
    bondRequired: false,
    currencyMatchesCountry: false,
    minPastTrades: '0',
    newBuyerMax: '',
    isPubliclyVisible: true,
    isGold: false,
    isSkipWarnings: false,
    requirements: [],
    allowedCountries: [],
    blockedCountries: [],
    location: null,
  };
}

export function offerForm(offer: EditableOffer): OfferForm {
  return {
    type: offer.type,
    crypto: offer.cryptoCurrency,
    currency: offer.fiatCurrency,
    paymentMethod: offer.paymentMethodSlug,
    priceType: offer.priceType,
    margin: offer.priceType === 'margin' ? String(offer.margin) : '0',
    fixedPrice: offer.priceType === 'fixed' ? String(offer.fiatPricePerCrypto) : '',
    fiatMin: String(offer.fiatLimitMin),
    fiatMax: String(offer.fiatLimitMax),
    predefined: offer.predefinedAmount.map(String),
    paymentWindow: offer.paymentWindowTime,
    label: offer.paymentMethodLabel ?? '',
    terms: offer.offerTerms,
    instructions: offer.tradeInstructions ?? '',
    tags: offer.tags,
    requireVerifiedId: offer.requireVerifiedId,
    showOnlyTrustedUser: offer.showOnlyTrustedUser,
    bondRequired: offer.bond.isRequired,
    currencyMatchesCountry: offer.requireOfferCurrencyMatchBuyerCountry,
    minPastTrades: String(offer.requireMinPastTrades),
    newBuyerMax: offer.newBuyerMaxFiatLimit === null ? '' : String(offer.newBuyerMaxFiatLimit),
    isPubliclyVisible: offer.isPubliclyVisible,
    isGold: offer.isGold,
    isSkipWarnings: offer.isSkipWarnings,
    requirements: offer.tradeRequirements.map(({ kind, stage, optional }) => ({ kind, stage, optional })),
    allowedCountries: offer.allowedCountries,
    blockedCountries: offer.blockedCountries,
    location: offer.location ? { id: offer.location.id, prettyName: offer.location.prettyName } : null,
  };
}

/** Empty rows of the predefined amounts mean nothing; dropping them keeps indexes aligned with the body. */
export function compact(form: OfferForm): OfferForm {
  return { ...form, predefined: form.predefined.map((a) => a.trim()).filter(Boolean) };
}

export function requestBody(form: OfferForm, isCashInPerson: boolean) {
  return {
    type: form.type,
    crypto_currency_code: form.crypto,
    currency: form.currency,
    payment_method: form.paymentMethod,
    price_type: form.priceType,
    ...(form.priceType === 'margin' ? { margin: form.margin.trim() } : { fixed_price: form.fixedPrice.trim() }),
    fiat_min: form.fiatMin.trim(),
    fiat_max: form.fiatMax.trim(),
    predefined_amounts: form.predefined,
    payment_window: form.paymentWindow,
    payment_method_label: form.label.trim(),
    terms: form.terms,
    trade_instructions: form.instructions,
    tags: form.tags,
    require_verified_id: form.requireVerifiedId,
    show_only_trusted_user: form.showOnlyTrustedUser,
    bond_required: form.bondRequired,
    require_offer_currency_match_buyer_country: form.currencyMatchesCountry,
    is_gold: form.isGold,
    // The control shows on sell offers only; a buy offer has no warning to skip.
    is_skip_warnings: form.type === 'sell' && form.isSkipWarnings,
    trade_requirements: form.requirements,
    is_publicly_visible: form.isPubliclyVisible,
    require_min_past_trades: Number(form.minPastTrades.trim() || '0'),
    new_buyer_max_fiat: form.newBuyerMax.trim() || null,
    allowed_countries: form.allowedCountries,
    blocked_countries: form.blockedCountries,
    location_id: isCashInPerson ? (form.location?.id ?? null) : null,
  };
}

const MARGIN = /^-?\d{1,3}(?:\.\d{1,2})?$/;
const WHOLE = /^\d{1,7}$/;

/** What the browser can tell before sending: the server's rules on the values as typed. */
export function checkOfferForm(
  form: OfferForm,
  { decimals, isCashInPerson }: { decimals: number; isCashInPerson: boolean },
): FormIssue[] {
  const issues: FormIssue[] = [];
  const issue = (field: string, key: string, params?: FormIssue['params']) =>
    issues.push({ field, key, ...(params ? { params } : {}) });

  if (!form.currency) issue('currency', 'offer_currency_unknown');
  if (!form.paymentMethod) issue('payment_method', 'offer_payment_method_unknown');

  const amount = (field: string, text: string): number | undefined => {
    const value = toMinorUnits(text, decimals);
    if (value === undefined || value <= 0) {
      issue(field, 'offer_amount_invalid', { decimals });
      return undefined;
    }
    return value;
  };

  if (form.priceType === 'margin') {
    const text = form.margin.trim();
    if (!MARGIN.test(text)) issue('margin', 'offer_margin_invalid');
    else if (Number(text) < MARGIN_MIN_PERCENT || Number(text) > MARGIN_MAX_PERCENT) {
      issue('margin', 'offer_margin_range', { min: MARGIN_MIN_PERCENT, max: MARGIN_MAX_PERCENT });
    }
  } else {
    amount('fixed_price', form.fixedPrice);
  }

  const min = amount('fiat_min', form.fiatMin);
  const max = amount('fiat_max', form.fiatMax);
  if (min !== undefined && max !== undefined && min > max) issue('fiat_max', 'offer_limits_order');

  if (form.predefined.length > PREDEFINED_AMOUNTS_MAX) {
    issue('predefined_amounts', 'offer_predefined_count', { max: PREDEFINED_AMOUNTS_MAX });
  } else {
    form.predefined.forEach((text, i) => {
      const value = amount(`predefined_amounts.${i}`, text);
      if (value === undefined || min === undefined || max === undefined) return;
      if (value < min || value > max) issue(`predefined_amounts.${i}`, 'offer_predefined_limits');
    });
  }

  if (form.newBuyerMax.trim()) {
    const value = amount('new_buyer_max_fiat', form.newBuyerMax);
    if (value !== undefined && min !== undefined && value < min) issue('new_buyer_max_fiat', 'offer_new_buyer_limit');
  }

  const long = (field: string, text: string, max: number) => {
    if (text.trim().length > max) issue(field, 'offer_text_too_long', { max });
  };
  long('payment_method_label', form.label, PAYMENT_METHOD_LABEL_MAX_LENGTH);
  long('terms', form.terms, TERMS_MAX_LENGTH);
  long('trade_instructions', form.instructions, TRADE_INSTRUCTIONS_MAX_LENGTH);

  if (form.tags.length > OFFER_TAGS_MAX) issue('tags', 'offer_tags_count', { max: OFFER_TAGS_MAX });
  if (form.isGold && !form.terms.trim()) issue('is_gold', 'offer_gold_needs_terms');
  checkRequirements(form.requirements, issue);

  const trades = form.minPastTrades.trim() || '0';
  if (!WHOLE.test(trades) || Number(trades) > MIN_PAST_TRADES_MAX) {
    issue('require_min_past_trades', 'offer_min_trades', { max: MIN_PAST_TRADES_MAX });
  }

  if (form.allowedCountries.length > COUNTRY_LIST_MAX) issue('allowed_countries', 'offer_countries_count');
  if (form.blockedCountries.length > COUNTRY_LIST_MAX) issue('blocked_countries', 'offer_countries_count');
  if (form.allowedCountries.some((c) => form.blockedCountries.includes(c))) {
    issue('blocked_countries', 'offer_countries_overlap');
  }

  if (isCashInPerson && !form.location) issue('location_id', 'offer_location_required');
  return issues;
}

/** At most MAX_TRADE_REQUIREMENTS proofs, each asked once per step (the server's rules). */
function checkRequirements(
  requirements: readonly OfferTradeRequirement[],
  issue: (field: string, key: string, params?: FormIssue['params']) => void,
) {
  if (requirements.length > MAX_TRADE_REQUIREMENTS) {
    issue('trade_requirements', 'offer_requirements_count', { max: MAX_TRADE_REQUIREMENTS });
  }
  const keys = requirements.map((r) => `${r.stage}:${r.kind}`);
  if (new Set(keys).size !== keys.length) issue('trade_requirements', 'offer_requirements_repeated');
}

/** The documents a new row offers first: the receipt of the payment, the most asked. */
const FIRST_KINDS = ['receipt', ...TRADE_REQUIREMENT_KINDS.filter((k) => k !== 'receipt')] as const;

/** The proof a new row asks for: the first document not yet asked at `stage`. */
export function nextRequirement(
  requirements: readonly OfferTradeRequirement[],
  stage: TradeRequirementStage = 'before_paid',
): OfferTradeRequirement {
  const kind = FIRST_KINDS.find((k) => !requirements.some((r) => r.stage === stage && r.kind === k)) ?? 'receipt';
  return { kind, stage, optional: false };
}

/**
 * The order fields appear in on the page, for focusing the first one with a problem. Fields the
 * server names that are not listed here (`type`, `payment_window`, …) come after these.
 */
export const FIELD_ORDER = [
  'type',
  'crypto_currency_code',
  'currency',
  'payment_method',
  'location_id',
  'payment_method_label',
  'price_type',
  'margin',
  'fixed_price',
  'fiat_min',
  'fiat_max',
  'predefined_amounts',
  'payment_window',
  'terms',
  'trade_instructions',
  'tags',
  'is_gold',
  'is_skip_warnings',
  'trade_requirements',
  'require_min_past_trades',
  'new_buyer_max_fiat',
  'allowed_countries',
  'blocked_countries',
] as const;

/** Position of an API field name in FIELD_ORDER (`predefined_amounts.3` sorts with its list). */
export function fieldRank(field: string): number {
  const base = field.split('.')[0] ?? field;
  const at = (FIELD_ORDER as readonly string[]).indexOf(base);
  const index = Number(field.split('.')[1] ?? 0);
  return (at === -1 ? FIELD_ORDER.length : at) * 1000 + (Number.isFinite(index) ? index : 0);
}

/** The element id of the control for an API field name: `predefined_amounts.0` → `offer-predefined_amounts-0`. */
export function fieldId(field: string): string {
  return `offer-${field.replace(/\./g, '-')}`;
}

/** The API fields a change of each form key can settle (limits are judged against each other). */
const LIMITS = ['fiat_min', 'fiat_max', 'predefined_amounts', 'new_buyer_max_fiat'];
export const AFFECTED_FIELDS: Record<keyof OfferForm, readonly string[]> = {
  type: ['type', 'is_skip_warnings'],
  crypto: ['crypto_currency_code'],
  currency: ['currency', ...LIMITS, 'fixed_price'],
  paymentMethod: ['payment_method', 'location_id'],
  priceType: ['price_type', 'margin', 'fixed_price'],
  margin: ['margin'],
  fixedPrice: ['fixed_price'],
  fiatMin: LIMITS,
  fiatMax: LIMITS,
  predefined: ['predefined_amounts'],
  paymentWindow: ['payment_window'],
  label: ['payment_method_label'],
  terms: ['terms', 'is_gold'],
  instructions: ['trade_instructions'],
  tags: ['tags'],
  requireVerifiedId: ['require_verified_id'],
  showOnlyTrustedUser: ['show_only_trusted_user'],
  bondRequired: ['bond_required'],
  currencyMatchesCountry: ['require_offer_currency_match_buyer_country'],
  minPastTrades: ['require_min_past_trades'],
  newBuyerMax: ['new_buyer_max_fiat'],
  isPubliclyVisible: ['is_publicly_visible'],
  isGold: ['is_gold'],
  isSkipWarnings: ['is_skip_warnings'],
  requirements: ['trade_requirements'],
  allowedCountries: ['allowed_countries', 'blocked_countries'],
  blockedCountries: ['allowed_countries', 'blocked_countries'],
  location: ['location_id'],
};
