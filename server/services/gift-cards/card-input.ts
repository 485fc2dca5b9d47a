import { toMinorUnits } from '../../../src/lib/shared/money.ts';
import {
  GIFT_CARD_KINDS,
  GIFT_CARD_MAX_IMAGES,
  GIFT_CARD_MAX_VALUE,
  GIFT_CODE_MAX_LENGTH,
  GIFT_CODE_MIN_LENGTH,
  type GiftCardKind,
} from '../../../src/lib/shared/views/gift-cards.ts';
import { type FieldIssue, invalidInput } from '../errors.ts';
import { GIFT_CARDS_GROUP } from '../trades/deps.ts';
import type { BrandRow, GiftCardsRepository } from './repository.ts';
import { normalizeGiftCode } from './vault.ts';

// A card as its owner saves it (POST /rest/v1/gift-cards): every field checked, every problem
// named at once (spec section 8: per-field details), before anything is written.

export interface SaveCardInput {
  code: string;
  /** Major units as the client sent them (spec section 5: a number), read as decimal text. */
  value: string;
  fiat_currency_id: number;
  payment_method_id: number;
  receipt: boolean;
  /** `gci_…` of images this person uploaded and no card has taken yet. */
  images: string[];
  type: string;
}

export interface CheckedCard {
  code: string;
  valueMinor: number;
  fiatCurrencyId: number;
  paymentMethodId: number;
  kind: GiftCardKind;
  hasReceipt: boolean;
  images: string[];
}

/** Letters, digits, spaces and dashes: what printed and e-mailed codes are made of. */
const CODE_CHARACTERS = /^[\p{L}\p{N} -]+$/u;

function codeIssue(code: string): FieldIssue | undefined {
  const compact = normalizeGiftCode(code);
  if (compact.length === 0) return { field: 'code', message: 'is required', key: 'gift_card_code_required' };
  if (!CODE_CHARACTERS.test(code.trim())) {
    return {
      field: 'code',
      message: 'may hold letters, digits, spaces and dashes only',
      key: 'gift_card_code_characters',
    };
  }
  if (compact.length < GIFT_CODE_MIN_LENGTH || compact.length > GIFT_CODE_MAX_LENGTH) {
    return {
      field: 'code',
      message: `must be ${GIFT_CODE_MIN_LENGTH} to ${GIFT_CODE_MAX_LENGTH} characters`,
      key: 'gift_card_code_length',
      params: { min: GIFT_CODE_MIN_LENGTH, max: GIFT_CODE_MAX_LENGTH },
    };
  }
  return undefined;
}

const brandFits = (brand: BrandRow, currencyCode: string) => {
  const currencies = JSON.parse(brand.currencies) as string[];
  return currencies.length === 0 || currencies.includes(currencyCode);
};

/** The card's fields checked against the reference data; ERROR_INPUT_VALIDATION lists every problem. */
export async function checkCard(repo: GiftCardsRepository, input: SaveCardInput): Promise<CheckedCard> {
  const issues: FieldIssue[] = [];
  const codeProblem = codeIssue(input.code);
  if (codeProblem) issues.push(codeProblem);
  const [brand, currency] = await Promise.all([
    repo.brand(input.payment_method_id),
    repo.currency(input.fiat_currency_id),
  ]);
  if (brand?.groupSlug !== GIFT_CARDS_GROUP) {
    issues.push({ field: 'payment_method_id', message: 'must be a gift card brand', key: 'gift_card_brand_invalid' });
  }
  if (!currency) {
    issues.push({ field: 'fiat_currency_id', message: 'must be a currency', key: 'gift_card_currency_invalid' });
  } else if (brand?.groupSlug === GIFT_CARDS_GROUP && !brandFits(brand, currency.code)) {
    issues.push({
      field: 'fiat_currency_id',
      message: `${brand.name} cards are not sold in ${currency.code}`,
      key: 'gift_card_currency_not_for_brand',
      params: { brand: brand.name, currency: currency.code },
    });
  }
  const valueMinor = currency ? toMinorUnits(input.value, currency.minorUnits) : undefined;
  const maxMinor = currency ? GIFT_CARD_MAX_VALUE * 10 ** currency.minorUnits : 0;
  if (currency && (valueMinor === undefined || valueMinor <= 0 || valueMinor > maxMinor)) {
    issues.push({
      field: 'value',
      message: `must be an amount above 0 and at most ${GIFT_CARD_MAX_VALUE}`,
      key: 'gift_card_value_invalid',
      params: { max: GIFT_CARD_MAX_VALUE },
    });
  }
  if (!(GIFT_CARD_KINDS as readonly string[]).includes(input.type)) {
    issues.push({ field: 'type', message: 'must be physical or ecard', key: 'gift_card_type_invalid' });
  }
  if (input.images.length > GIFT_CARD_MAX_IMAGES || new Set(input.images).size !== input.images.length) {
    issues.push({
      field: 'images',
      message: `must be at most ${GIFT_CARD_MAX_IMAGES} different images`,
      key: 'gift_card_images_count',
      params: { max: GIFT_CARD_MAX_IMAGES },
    });
  }
  if (issues.length > 0) throw invalidInput(issues);
  return {
    code: input.code.trim(),
    valueMinor: valueMinor as number,
    fiatCurrencyId: input.fiat_currency_id,
    paymentMethodId: input.payment_method_id,
    kind: input.type as GiftCardKind,
    hasReceipt: input.receipt,
    images: input.images,
  };
}
