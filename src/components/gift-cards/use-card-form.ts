import { useState } from 'react';
import { apiPost, splitErrors } from '../../lib/api-client.ts';
import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';
import type { GiftCardKind, GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { brandsSoldIn, type CardFormChoices } from './types.ts';
import { useCardImages } from './use-card-images.ts';

// The "add a card" form's state: the fields, the pictures, and the save (POST /rest/v1/gift-cards).
// Spec section 8: a failed save shows the server's message or a generic one, plus each field's
// own message from `details`. The code is a secret: it is cleared once saved and never shown again.

/** The form's fields as the API names them: `details[].field` lands next to its input. */
export const CARD_FIELDS = ['code', 'value', 'fiat_currency_id', 'payment_method_id', 'type', 'images'] as const;
type CardField = (typeof CARD_FIELDS)[number];

type T = (key: string, params?: Record<string, string | number>) => string;

function initialIds(choices: CardFormChoices) {
  if (choices.kind === 'fixed') return { currencyId: choices.currency.id, brandId: choices.brand.id };
  return { currencyId: choices.defaultCurrencyId, brandId: 0 };
}

type Errors = Partial<Record<CardField, string>>;

/** The fields themselves; typing in one clears its error. */
function useCardFields(choices: CardFormChoices, setErrors: (change: (all: Errors) => Errors) => void) {
  const [code, setCode] = useState('');
  const [value, setValue] = useState('');
  const [ids, setIds] = useState(() => initialIds(choices));
  const [kind, setKind] = useState<GiftCardKind>('ecard');
  const [receipt, setReceipt] = useState(false);
  const forget = (field: CardField) => setErrors((all) => ({ ...all, [field]: undefined }));
  const currency =
    choices.kind === 'fixed' ? choices.currency : choices.currencies.find((c) => c.id === ids.currencyId);
  return {
    code,
    value,
    ids,
    currency,
    brands: choices.kind === 'fixed' ? [] : brandsSoldIn(choices.brands, currency?.code),
    kind,
    receipt,
    setKind,
    setReceipt,
    setCurrency: (currencyId: number) => {
      if (choices.kind === 'fixed') return;
      const code = choices.currencies.find((c) => c.id === currencyId)?.code;
      // A brand not sold in the new currency is let go rather than saved where it cannot be.
      const keep = brandsSoldIn(choices.brands, code).some((brand) => brand.id === ids.brandId);
      setIds({ currencyId, brandId: keep ? ids.brandId : 0 });
      forget('fiat_currency_id');
    },
    setBrand: (brandId: number) => {
      setIds((current) => ({ ...current, brandId }));
      forget('payment_method_id');
    },
    onValue: (text: string) => {
      if (!AMOUNT_PATTERN.test(text)) return;
      setValue(text);
      forget('value');
    },
    onCode: (text: string) => {
      setCode(text);
      forget('code');
    },
    /** After a save: the code is a secret and goes at once; brand, currency and kind stay for the next card. */
    reset: () => {
      setCode('');
      setValue('');
      setReceipt(false);
    },
  };
}

export function useCardForm(choices: CardFormChoices, t: T, onSaved: (card: GiftCardView) => void) {
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [summary, setSummary] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const fields = useCardFields(choices, setErrors);
  const images = useCardImages(t);

  const save = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (saving || images.uploading) return;
    if (!fields.ids.brandId) {
      // Said here rather than as the API's "must be an id": no brand is a choice not yet made.
      setErrors({ payment_method_id: t('giftCards.field.brandRequired') });
      setSummary(t('giftCards.form.checkFields'));
      return;
    }
    setSaving(true);
    setSaved(false);
    setSummary(undefined);
    const result = await apiPost<GiftCardView>('/rest/v1/gift-cards', {
      code: fields.code,
      // Spec section 5: amounts travel as numbers.
      value: Number(fields.value || '0'),
      fiat_currency_id: fields.ids.currencyId,
      payment_method_id: fields.ids.brandId,
      receipt: fields.receipt,
      images: images.ids,
      type: fields.kind,
    });
    setSaving(false);
    if (result.ok && result.data) {
      fields.reset();
      images.clear();
      setErrors({});
      setSaved(true);
      onSaved(result.data);
      return;
    }
    const split = splitErrors(result.errors, CARD_FIELDS);
    setErrors(split.fields as Errors);
    const fieldCount = Object.keys(split.fields).length;
    setSummary(split.summary || t(fieldCount > 0 ? 'giftCards.form.checkFields' : 'giftCards.form.failed'));
  };

  return { ...fields, brandId: fields.ids.brandId, saving, saved, errors, summary, images, save };
}

export type CardFormState = ReturnType<typeof useCardForm>;
