import {
  MARGIN_MAX_PERCENT,
  MARGIN_MIN_PERCENT,
  MIN_PAST_TRADES_MAX,
  OFFER_TAGS,
  OFFER_TAGS_MAX,
  PAYMENT_WINDOWS,
  PREDEFINED_AMOUNTS_MAX,
  TERMS_MAX_LENGTH,
  TRADE_INSTRUCTIONS_MAX_LENGTH,
} from '../../lib/shared/offer-rules.ts';
import { CountryPicker } from './CountryPicker.tsx';
import { fieldId, type OfferForm } from './form.ts';
import type { EditorCountry } from './types.ts';
import { controlAria, Field, FieldError, Hint, Section, Segmented, useEditor } from './ui.tsx';

// The form's cards below the trade and payment choices: price, limits, terms, requirements and
// who sees the offer. Each renders fields of the one form state and reports edits as patches.

export interface SectionProps {
  form: OfferForm;
  set: (patch: Partial<OfferForm>) => void;
  /** The message to show at an API field, if any. */
  err: (field: string) => string | undefined;
}

export function PriceSection({ form, set, err }: SectionProps) {
  const { t } = useEditor();
  return (
    <Section id="offer-price" title={t('offerEditor.section.price')}>
      <Segmented
        field="price_type"
        legend={t('offerEditor.priceType.label')}
        value={form.priceType}
        options={[
          { value: 'margin', label: t('offerEditor.priceType.margin') },
          { value: 'fixed', label: t('offerEditor.priceType.fixed') },
        ]}
        onChange={(priceType) => set({ priceType })}
      />
      {form.priceType === 'margin' ? (
        <Field
          field="margin"
          label={t('offerEditor.margin.label')}
          hint={t('offerEditor.margin.hint', { min: MARGIN_MIN_PERCENT, max: MARGIN_MAX_PERCENT })}
          error={err('margin')}
        >
          <div className="affix">
            <input
              {...controlAria('margin', err('margin'), true)}
              className="input input-short"
              inputMode="decimal"
              value={form.margin}
              onChange={(e) => set({ margin: e.target.value })}
              maxLength={7}
            />
            <span className="affix-text" aria-hidden="true">
              %
            </span>
          </div>
        </Field>
      ) : (
        <Field
          field="fixed_price"
          label={t('offerEditor.fixed.label', { currency: form.currency })}
          hint={t('offerEditor.fixed.hint')}
          error={err('fixed_price')}
        >
          <input
            {...controlAria('fixed_price', err('fixed_price'), true)}
            className="input input-medium"
            inputMode="decimal"
            value={form.fixedPrice}
            onChange={(e) => set({ fixedPrice: e.target.value })}
            maxLength={30}
          />
        </Field>
      )}
    </Section>
  );
}

function AmountInput({
  form,
  set,
  err,
  field,
  name,
}: SectionProps & { field: 'fiat_min' | 'fiat_max'; name: 'fiatMin' | 'fiatMax' }) {
  return (
    <div className="affix">
      <input
        {...controlAria(field, err(field), true)}
        className="input"
        inputMode="decimal"
        value={form[name]}
        onChange={(e) => set({ [name]: e.target.value })}
        maxLength={30}
      />
      <span className="affix-text" aria-hidden="true">
        {form.currency}
      </span>
    </div>
  );
}

/** One predefined amount: its input, its remove button and its message. */
function PredefinedRow({ form, set, err, index: i, amount }: SectionProps & { index: number; amount: string }) {
  const { t } = useEditor();
  const field = `predefined_amounts.${i}`;
  const setAmount = (text: string) => set({ predefined: form.predefined.map((a, j) => (j === i ? text : a)) });
  return (
    <li className="amount-row">
      <label className="visually-hidden" htmlFor={fieldId(field)}>
        {t('offerEditor.predefined.amount', { n: i + 1 })}
      </label>
      <input
        {...controlAria(field, err(field))}
        className="input input-medium"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        maxLength={30}
      />
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() => set({ predefined: form.predefined.filter((_, j) => j !== i) })}
      >
        {t('offerEditor.predefined.remove')}
        <span className="visually-hidden"> {t('offerEditor.predefined.amount', { n: i + 1 })}</span>
      </button>
      <FieldError field={field} error={err(field)} />
    </li>
  );
}

function PredefinedAmounts(props: SectionProps) {
  const { form, set, err } = props;
  const { t } = useEditor();
  return (
    <fieldset className="fieldset">
      <legend className="field-label">{t('offerEditor.predefined.label')}</legend>
      <Hint field="predefined_amounts">{t('offerEditor.predefined.hint', { max: PREDEFINED_AMOUNTS_MAX })}</Hint>
      {form.predefined.length > 0 && (
        <ul className="amount-list">
          {form.predefined.map((amount, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions; the API names them by index
            <PredefinedRow key={i} {...props} index={i} amount={amount} />
          ))}
        </ul>
      )}
      <div>
        <button
          type="button"
          id={fieldId('predefined_amounts')}
          className="btn btn-secondary"
          aria-describedby={`${fieldId('predefined_amounts')}-hint ${fieldId('predefined_amounts')}-error`}
          disabled={form.predefined.length >= PREDEFINED_AMOUNTS_MAX}
          onClick={() => set({ predefined: [...form.predefined, ''] })}
        >
          {t('offerEditor.predefined.add')}
        </button>
      </div>
      <FieldError field="predefined_amounts" error={err('predefined_amounts')} />
    </fieldset>
  );
}

export function LimitsSection({ form, set, err, decimals }: SectionProps & { decimals: number }) {
  const { t } = useEditor();
  const section = { form, set, err };
  return (
    <Section id="offer-limits" title={t('offerEditor.section.limits')}>
      <div className="pair">
        <Field
          field="fiat_min"
          label={t('offerEditor.min.label')}
          hint={t('offerEditor.amount.hint', { decimals })}
          error={err('fiat_min')}
        >
          <AmountInput {...section} field="fiat_min" name="fiatMin" />
        </Field>
        <Field
          field="fiat_max"
          label={t('offerEditor.max.label')}
          hint={t('offerEditor.amount.hint', { decimals })}
          error={err('fiat_max')}
        >
          <AmountInput {...section} field="fiat_max" name="fiatMax" />
        </Field>
      </div>
      <PredefinedAmounts {...section} />
      <Field
        field="payment_window"
        label={t('offerEditor.window.label')}
        hint={t('offerEditor.window.hint')}
        error={err('payment_window')}
      >
        <select
          {...controlAria('payment_window', err('payment_window'), true)}
          className="input input-medium"
          value={form.paymentWindow}
          onChange={(e) => set({ paymentWindow: Number(e.target.value) })}
        >
          {PAYMENT_WINDOWS.map((minutes) => (
            <option key={minutes} value={minutes}>
              {t('offerEditor.window.minutes', { minutes })}
            </option>
          ))}
        </select>
      </Field>
    </Section>
  );
}

export function TermsSection({ form, set, err }: SectionProps) {
  const { t } = useEditor();
  const full = form.tags.length >= OFFER_TAGS_MAX;
  return (
    <Section id="offer-terms" title={t('offerEditor.section.terms')}>
      <Field
        field="terms"
        label={t('offerEditor.terms.label')}
        hint={t('offerEditor.terms.hint', { count: form.terms.length, max: TERMS_MAX_LENGTH })}
        error={err('terms')}
      >
        <textarea
          {...controlAria('terms', err('terms'), true)}
          className="input"
          rows={5}
          value={form.terms}
          onChange={(e) => set({ terms: e.target.value })}
        />
      </Field>
      <Field
        field="trade_instructions"
        label={t('offerEditor.instructions.label')}
        hint={t('offerEditor.instructions.hint', {
          count: form.instructions.length,
          max: TRADE_INSTRUCTIONS_MAX_LENGTH,
        })}
        error={err('trade_instructions')}
      >
        <textarea
          {...controlAria('trade_instructions', err('trade_instructions'), true)}
          className="input"
          rows={4}
          value={form.instructions}
          onChange={(e) => set({ instructions: e.target.value })}
        />
      </Field>
      <fieldset className="fieldset" aria-describedby={`${fieldId('tags')}-hint ${fieldId('tags')}-error`}>
        <legend className="field-label">{t('offerEditor.tags.label')}</legend>
        <Hint field="tags">{t('offerEditor.tags.hint', { max: OFFER_TAGS_MAX, count: form.tags.length })}</Hint>
        <div className="tag-grid">
          {OFFER_TAGS.map((tag, i) => {
            const on = form.tags.includes(tag);
            return (
              <label key={tag} className="checkbox tag-option">
                <input
                  type="checkbox"
                  {...(i === 0 ? { id: fieldId('tags') } : {})}
                  checked={on}
                  disabled={!on && full}
                  onChange={(e) =>
                    set({ tags: e.target.checked ? [...form.tags, tag] : form.tags.filter((x) => x !== tag) })
                  }
                />
                <span>{t(`offer.tag.${tag}`)}</span>
              </label>
            );
          })}
        </div>
        <FieldError field="tags" error={err('tags')} />
      </fieldset>
    </Section>
  );
}

export function RequirementsSection({ form, set, err }: SectionProps) {
  const { t } = useEditor();
  const flags = [
    ['requireVerifiedId', 'offerEditor.req.verifiedId'],
    ['showOnlyTrustedUser', 'offerEditor.req.trusted'],
    ['currencyMatchesCountry', 'offerEditor.req.currencyCountry'],
    ['bondRequired', 'offerEditor.req.bond'],
  ] as const;
  return (
    <Section id="offer-requirements" title={t('offerEditor.section.requirements')}>
      <div className="checkbox-list">
        {flags.map(([key, label]) => (
          <label key={key} className="checkbox">
            <input type="checkbox" checked={form[key]} onChange={(e) => set({ [key]: e.target.checked })} />
            <span>{t(label)}</span>
          </label>
        ))}
      </div>
      <div className="pair">
        <Field
          field="require_min_past_trades"
          label={t('offerEditor.req.minTrades')}
          hint={t('offerEditor.req.minTradesHint', { max: MIN_PAST_TRADES_MAX })}
          error={err('require_min_past_trades')}
        >
          <input
            {...controlAria('require_min_past_trades', err('require_min_past_trades'), true)}
            className="input input-short"
            inputMode="numeric"
            value={form.minPastTrades}
            onChange={(e) => set({ minPastTrades: e.target.value })}
            maxLength={4}
          />
        </Field>
        <Field
          field="new_buyer_max_fiat"
          label={t('offerEditor.req.newBuyerMax', { currency: form.currency })}
          hint={t('offerEditor.req.newBuyerMaxHint')}
          error={err('new_buyer_max_fiat')}
        >
          <input
            {...controlAria('new_buyer_max_fiat', err('new_buyer_max_fiat'), true)}
            className="input input-medium"
            inputMode="decimal"
            value={form.newBuyerMax}
            onChange={(e) => set({ newBuyerMax: e.target.value })}
            maxLength={30}
          />
        </Field>
      </div>
    </Section>
  );
}

export function VisibilitySection({
  form,
  set,
  err,
  countries,
}: SectionProps & { countries: readonly EditorCountry[] }) {
  const { t } = useEditor();
  return (
    <Section id="offer-visibility" title={t('offerEditor.section.visibility')}>
      <label className="checkbox">
        <input
          type="checkbox"
          id={fieldId('is_publicly_visible')}
          checked={form.isPubliclyVisible}
          onChange={(e) => set({ isPubliclyVisible: e.target.checked })}
        />
        <span>
          {t('offerEditor.visibility.public')}
          <small className="checkbox-hint">{t('offerEditor.visibility.publicHint')}</small>
        </span>
      </label>
      <CountryPicker
        field="allowed_countries"
        label={t('offerEditor.countries.allowed')}
        hint={t('offerEditor.countries.allowedHint')}
        countries={countries}
        value={form.allowedCountries}
        onChange={(allowedCountries) => set({ allowedCountries })}
        error={err('allowed_countries')}
      />
      <CountryPicker
        field="blocked_countries"
        label={t('offerEditor.countries.blocked')}
        hint={t('offerEditor.countries.blockedHint')}
        countries={countries}
        value={form.blockedCountries}
        onChange={(blockedCountries) => set({ blockedCountries })}
        error={err('blocked_countries')}
      />
    </Section>
  );
}
