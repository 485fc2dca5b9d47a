import { toMinorUnits } from '../../../src/lib/shared/money.ts';
import {
  CASH_IN_PERSON_GROUP,
  COUNTRY_LIST_MAX,
  MARGIN_MAX_PERCENT,
  MARGIN_MIN_PERCENT,
  MIN_PAST_TRADES_MAX,
  OFFER_TAGS,
  OFFER_TAGS_MAX,
  PAYMENT_METHOD_LABEL_MAX_LENGTH,
  PAYMENT_WINDOWS,
  PREDEFINED_AMOUNTS_MAX,
  TERMS_MAX_LENGTH,
  TRADE_INSTRUCTIONS_MAX_LENGTH,
} from '../../../src/lib/shared/offer-rules.ts';
import { MAX_TRADE_REQUIREMENTS, type OfferTradeRequirement } from '../../../src/lib/shared/trade-requirements.ts';
import type { FieldIssue } from '../errors.ts';
import type { CatalogueMethod, OffersCatalogue } from './catalogue.ts';

// What a vendor sends to create or replace an offer (snake_case, spec section 7's convention),
// checked against the catalogue and the bounds of src/lib/shared/offer-rules.ts. Every problem is
// reported at once, per field, so a form can mark them all.

export interface OfferInput {
  type: 'buy' | 'sell';
  crypto_currency_code: 'BTC' | 'USDT';
  currency: string;
  payment_method: string;
  price_type: 'margin' | 'fixed';
  margin?: string | undefined;
  fixed_price?: string | undefined;
  fiat_min: string;
  fiat_max: string;
  predefined_amounts?: string[] | undefined;
  payment_window?: number | undefined;
  payment_method_label?: string | undefined;
  terms?: string | undefined;
  trade_instructions?: string | undefined;
  tags?: string[] | undefined;
  trade_requirements?: OfferTradeRequirement[] | undefined;
  require_verified_id?: boolean | undefined;
  show_only_trusted_user?: boolean | undefined;
  bond_required?: boolean | undefined;
  require_offer_currency_match_buyer_country?: boolean | undefined;
  is_gold?: boolean | undefined;
  is_skip_warnings?: boolean | undefined;
  is_publicly_visible?: boolean | undefined;
  require_min_past_trades?: number | undefined;
  new_buyer_max_fiat?: string | null | undefined;
  allowed_countries?: string[] | undefined;
  blocked_countries?: string[] | undefined;
  location_id?: number | null | undefined;
}

/** Columns of `offers` an input decides (the owner, hash and times come from the service). */
export interface OfferValues {
  type: 'buy' | 'sell';
  cryptoCurrencyId: number;
  fiatCurrencyId: number;
  paymentMethodId: number;
  priceType: 'margin' | 'fixed';
  marginBasisPoints: number;
  fixedPriceMinor: number | null;
  fiatMinMinor: number;
  fiatMaxMinor: number;
  predefinedAmountsMinor: number[];
  paymentWindowMinutes: number;
  paymentMethodLabel: string | null;
  terms: string;
  tradeInstructions: string;
  tags: string[];
  tradeRequirements: OfferTradeRequirement[];
  requireVerifiedId: boolean;
  showOnlyTrustedUser: boolean;
  bondRequired: boolean;
  requireOfferCurrencyMatchBuyerCountry: boolean;
  isGold: boolean;
  isSkipWarnings: boolean;
  isPubliclyVisible: boolean;
  requireMinPastTrades: number;
  newBuyerMaxFiatMinor: number | null;
  allowedCountries: string[];
  blockedCountries: string[];
  locationId: number | null;
}

const MARGIN = /^-?\d{1,3}(?:\.\d{1,2})?$/;

/** Records one problem with a field; every step adds to the same list. */
type Issue = (field: string, key: string, message: string, params?: Record<string, string | number>) => void;

/** Amounts in the currency's minor units; the currency's decimals bound the precision. */
const amountReader =
  (issue: Issue, minor: number) =>
  (field: string, text: string): number | undefined => {
    const value = toMinorUnits(text, minor);
    if (value === undefined || value <= 0) {
      issue(field, 'offer_amount_invalid', `Enter an amount above 0 with at most ${minor} decimals.`, {
        decimals: minor,
      });
      return undefined;
    }
    return value;
  };
type AmountReader = ReturnType<typeof amountReader>;

/** What is traded for what: the crypto, the currency and the payment method, from the catalogue. */
function readProduct(input: OfferInput, catalogue: OffersCatalogue, issue: Issue) {
  const crypto = catalogue.cryptoByCode(input.crypto_currency_code);
  if (!crypto) issue('crypto_currency_code', 'offer_crypto_unknown', 'Choose BTC or USDT.');
  const currency = catalogue.currencyByCode(input.currency);
  if (!currency) issue('currency', 'offer_currency_unknown', `Unknown currency ${input.currency}.`);
  const method = catalogue.methodBySlug(input.payment_method);
  if (!method)
    issue('payment_method', 'offer_payment_method_unknown', `Unknown payment method ${input.payment_method}.`);
  return { crypto, currency, method };
}

/** A margin over the market in basis points, or a fixed price in minor units. */
function readPrice(input: OfferInput, issue: Issue, amount: AmountReader) {
  let marginBasisPoints = 0;
  let fixedPriceMinor: number | null = null;
  if (input.price_type === 'margin') {
    const text = (input.margin ?? '').trim();
    if (!MARGIN.test(text)) {
      issue(
        'margin',
        'offer_margin_invalid',
        'Enter the margin in percent with at most 2 decimals, such as 2.5 or -1.',
      );
    } else {
      marginBasisPoints = Math.round(Number(text) * 100);
      if (marginBasisPoints < MARGIN_MIN_PERCENT * 100 || marginBasisPoints > MARGIN_MAX_PERCENT * 100) {
        issue(
          'margin',
          'offer_margin_range',
          `The margin must be between ${MARGIN_MIN_PERCENT} % and ${MARGIN_MAX_PERCENT} %.`,
          { min: MARGIN_MIN_PERCENT, max: MARGIN_MAX_PERCENT },
        );
      }
    }
  } else {
    fixedPriceMinor = amount('fixed_price', input.fixed_price ?? '') ?? null;
  }
  return { marginBasisPoints, fixedPriceMinor };
}

/** The trade limits, the one-click amounts within them and the cap for new partners. */
function readLimits(input: OfferInput, issue: Issue, amount: AmountReader) {
  const fiatMinMinor = amount('fiat_min', input.fiat_min);
  const fiatMaxMinor = amount('fiat_max', input.fiat_max);
  if (fiatMinMinor !== undefined && fiatMaxMinor !== undefined && fiatMinMinor > fiatMaxMinor) {
    issue('fiat_max', 'offer_limits_order', 'The maximum must not be below the minimum.');
  }
  const within = (value: number) =>
    fiatMinMinor === undefined || fiatMaxMinor === undefined || (value >= fiatMinMinor && value <= fiatMaxMinor);

  const predefinedAmountsMinor: number[] = [];
  const predefined = input.predefined_amounts ?? [];
  if (predefined.length > PREDEFINED_AMOUNTS_MAX) {
    issue('predefined_amounts', 'offer_predefined_count', `At most ${PREDEFINED_AMOUNTS_MAX} amounts.`, {
      max: PREDEFINED_AMOUNTS_MAX,
    });
  } else {
    predefined.forEach((text, i) => {
      const value = amount(`predefined_amounts.${i}`, text);
      if (value === undefined) return;
      if (!within(value)) {
        issue(`predefined_amounts.${i}`, 'offer_predefined_limits', 'Each amount must lie within the limits.');
      } else if (!predefinedAmountsMinor.includes(value)) {
        predefinedAmountsMinor.push(value);
      }
    });
    predefinedAmountsMinor.sort((a, b) => a - b);
  }

  let newBuyerMaxFiatMinor: number | null = null;
  if (input.new_buyer_max_fiat) {
    newBuyerMaxFiatMinor = amount('new_buyer_max_fiat', input.new_buyer_max_fiat) ?? null;
    if (newBuyerMaxFiatMinor !== null && fiatMinMinor !== undefined && newBuyerMaxFiatMinor < fiatMinMinor) {
      issue('new_buyer_max_fiat', 'offer_new_buyer_limit', 'The limit for new partners must not be below the minimum.');
    }
  }
  return { fiatMinMinor, fiatMaxMinor, predefinedAmountsMinor, newBuyerMaxFiatMinor };
}

/** The payment window and the texts the vendor writes, trimmed and bounded. */
function readTerms(input: OfferInput, issue: Issue) {
  const paymentWindowMinutes = input.payment_window ?? 30;
  if (!(PAYMENT_WINDOWS as readonly number[]).includes(paymentWindowMinutes)) {
    issue('payment_window', 'offer_payment_window', `Choose one of ${PAYMENT_WINDOWS.join(', ')} minutes.`, {
      choices: PAYMENT_WINDOWS.join(', '),
    });
  }
  const text = (field: string, value: string | undefined, max: number) => {
    const trimmed = (value ?? '').trim();
    if (trimmed.length > max) issue(field, 'offer_text_too_long', `At most ${max} characters.`, { max });
    return trimmed;
  };
  const terms = text('terms', input.terms, TERMS_MAX_LENGTH);
  const tradeInstructions = text('trade_instructions', input.trade_instructions, TRADE_INSTRUCTIONS_MAX_LENGTH);
  const label = text('payment_method_label', input.payment_method_label, PAYMENT_METHOD_LABEL_MAX_LENGTH);
  return { paymentWindowMinutes, terms, tradeInstructions, label };
}

/** Tags, the proofs asked during the trade and the past trades a partner needs. */
function readConditions(input: OfferInput, issue: Issue) {
  const tags = [...new Set(input.tags ?? [])];
  if (tags.length > OFFER_TAGS_MAX) {
    issue('tags', 'offer_tags_count', `At most ${OFFER_TAGS_MAX} tags.`, { max: OFFER_TAGS_MAX });
  }
  for (const tag of tags) {
    if (!(OFFER_TAGS as readonly string[]).includes(tag)) issue('tags', 'offer_tag_unknown', `Unknown tag ${tag}.`);
  }

  const tradeRequirements = input.trade_requirements ?? [];
  if (tradeRequirements.length > MAX_TRADE_REQUIREMENTS) {
    issue('trade_requirements', 'offer_requirements_count', `At most ${MAX_TRADE_REQUIREMENTS} requirements.`, {
      max: MAX_TRADE_REQUIREMENTS,
    });
  }
  const requirementKeys = tradeRequirements.map((r) => `${r.stage}:${r.kind}`);
  if (new Set(requirementKeys).size !== requirementKeys.length) {
    issue('trade_requirements', 'offer_requirements_repeated', 'Ask for each proof once per step.');
  }

  const requireMinPastTrades = input.require_min_past_trades ?? 0;
  if (
    !Number.isInteger(requireMinPastTrades) ||
    requireMinPastTrades < 0 ||
    requireMinPastTrades > MIN_PAST_TRADES_MAX
  ) {
    issue('require_min_past_trades', 'offer_min_trades', `Between 0 and ${MIN_PAST_TRADES_MAX}.`, {
      max: MIN_PAST_TRADES_MAX,
    });
  }
  return { tags, tradeRequirements, requireMinPastTrades };
}

/**
 * Gold terms and the skipped warning (spec section 4's start-trade decisions): gold terms ask the
 * partner to accept the offer's terms, so there must be terms to accept; the warning skipped is
 * the one people who buy see, so only sell offers have one to skip (decision 128).
 */
function checkTradeFlags(input: OfferInput, terms: string, issue: Issue) {
  if (input.is_gold && !terms) {
    issue('is_gold', 'offer_gold_needs_terms', 'Gold terms need terms to accept: write your terms first.');
  }
  if (input.is_skip_warnings && input.type === 'buy') {
    issue('is_skip_warnings', 'offer_skip_warnings_buy', 'Only sell offers show buyers a warning to skip.');
  }
}

/** Where partners may come from, and where a cash-in-person trade meets. */
function readPlaces(input: OfferInput, catalogue: OffersCatalogue, issue: Issue, method: CatalogueMethod | undefined) {
  const countryList = (field: string, list: string[] | undefined) => {
    const codes = [...new Set((list ?? []).map((c) => c.toUpperCase()))];
    if (codes.length > COUNTRY_LIST_MAX)
      issue(field, 'offer_countries_count', `At most ${COUNTRY_LIST_MAX} countries.`);
    for (const code of codes) {
      if (!catalogue.isCountry(code)) issue(field, 'offer_country_unknown', `Unknown country ${code}.`);
    }
    return codes;
  };
  const allowedCountries = countryList('allowed_countries', input.allowed_countries);
  const blockedCountries = countryList('blocked_countries', input.blocked_countries);
  if (allowedCountries.some((c) => blockedCountries.includes(c))) {
    issue('blocked_countries', 'offer_countries_overlap', 'A country cannot be both allowed and blocked.');
  }

  // Cash in person names the place to meet; other methods have none.
  let locationId: number | null = null;
  if (method?.groupSlug === CASH_IN_PERSON_GROUP) {
    const place = input.location_id == null ? undefined : catalogue.location(input.location_id);
    if (!place) issue('location_id', 'offer_location_required', 'Choose where to meet.');
    else locationId = place.id;
  }
  return { allowedCountries, blockedCountries, locationId };
}

/** The checked values, or the list of what is wrong with them. */
export function readOfferInput(
  input: OfferInput,
  catalogue: OffersCatalogue,
): { values: OfferValues; issues?: never } | { values?: never; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const issue: Issue = (field, key, message, params) =>
    issues.push({ field, key, message, ...(params ? { params } : {}) });

  const { crypto, currency, method } = readProduct(input, catalogue, issue);
  const amount = amountReader(issue, currency?.minorUnits ?? 2);
  const { marginBasisPoints, fixedPriceMinor } = readPrice(input, issue, amount);
  const { fiatMinMinor, fiatMaxMinor, predefinedAmountsMinor, newBuyerMaxFiatMinor } = readLimits(input, issue, amount);
  const { paymentWindowMinutes, terms, tradeInstructions, label } = readTerms(input, issue);
  const { tags, tradeRequirements, requireMinPastTrades } = readConditions(input, issue);
  checkTradeFlags(input, terms, issue);
  const { allowedCountries, blockedCountries, locationId } = readPlaces(input, catalogue, issue, method);

  if (
    issues.length > 0 ||
    !crypto ||
    !currency ||
    !method ||
    fiatMinMinor === undefined ||
    fiatMaxMinor === undefined
  ) {
    return { issues };
  }
  return {
    values: {
      type: input.type,
      cryptoCurrencyId: crypto.id,
      fiatCurrencyId: currency.id,
      paymentMethodId: method.id,
      priceType: input.price_type,
      marginBasisPoints: input.price_type === 'margin' ? marginBasisPoints : 0,
      fixedPriceMinor,
      fiatMinMinor,
      fiatMaxMinor,
      predefinedAmountsMinor,
      paymentWindowMinutes,
      paymentMethodLabel: label || null,
      terms,
      tradeInstructions,
      tags,
      tradeRequirements: tradeRequirements.map(({ kind, stage, optional }) => ({ kind, stage, optional })),
      requireVerifiedId: input.require_verified_id ?? false,
      showOnlyTrustedUser: input.show_only_trusted_user ?? false,
      bondRequired: input.bond_required ?? false,
      requireOfferCurrencyMatchBuyerCountry: input.require_offer_currency_match_buyer_country ?? false,
      isGold: input.is_gold ?? false,
      isSkipWarnings: input.is_skip_warnings ?? false,
      isPubliclyVisible: input.is_publicly_visible ?? true,
      requireMinPastTrades,
      newBuyerMaxFiatMinor,
      allowedCountries,
      blockedCountries,
      locationId,
    },
  };
}
