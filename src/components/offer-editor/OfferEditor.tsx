import { type FocusEvent, type SubmitEvent, useMemo, useState } from 'react';
import { apiRequest, NETWORK_ERROR_CODE } from '../../lib/api-client.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { CASH_IN_PERSON_GROUP, PAYMENT_METHOD_LABEL_MAX_LENGTH } from '../../lib/shared/offer-rules.ts';
import { CurrencyPicker } from './CurrencyPicker.tsx';
import {
  AFFECTED_FIELDS,
  checkOfferForm,
  compact,
  fieldId,
  fieldRank,
  newOfferForm,
  type OfferForm,
  offerForm,
  requestBody,
} from './form.ts';
import { LocationPicker } from './LocationPicker.tsx';
import { MethodPicker } from './MethodPicker.tsx';
import { PricePreview } from './PricePreview.tsx';
import { LimitsSection, PriceSection, RequirementsSection, TermsSection, VisibilitySection } from './sections.tsx';
import type { EditableOffer, EditorCountry, EditorCurrency, EditorGroup, EditorMethod } from './types.ts';
import { controlAria, EditorContext, Field, localized, Section, Segmented } from './ui.tsx';

// The vendor's offer form (/offers/new and /offers/{hash}/edit). Problems show at their field as
// soon as the vendor leaves it and all at once on submit, from the same rules the server applies;
// what only the server knows comes back as ERROR_INPUT_VALIDATION details and lands on the same
// fields. On success the vendor goes to /my-offers with a notice.

export interface OfferEditorProps {
  locale: string;
  lang: string;
  messages: IslandMessages;
  currencies: EditorCurrency[];
  groups: EditorGroup[];
  methods: EditorMethod[];
  countries: EditorCountry[];
  /** The vendor's own currency, preselected for a new offer. */
  defaultCurrency: string;
  /** Absent for a new offer. */
  offer?: EditableOffer;
  /** /my-offers in the page's language; `?done=created|updated` is added. */
  doneUrl: string;
}

export default function OfferEditor(props: OfferEditorProps) {
  const { locale, lang, messages, currencies, groups, methods, countries, offer } = props;
  const t = useMemo(() => islandTranslator(messages), [messages]);
  const context = useMemo(() => ({ t, lang, locale }), [t, lang, locale]);
  const [form, setForm] = useState<OfferForm>(() => (offer ? offerForm(offer) : newOfferForm(props.defaultCurrency)));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string>();
  const [busy, setBusy] = useState(false);

  const currency = currencies.find((c) => c.code === form.currency);
  const decimals = currency?.minorUnits ?? 2;
  const method = methods.find((m) => m.slug === form.paymentMethod);
  const group = method ? groups.find((g) => g.id === method.groupId) : undefined;
  const isCashInPerson = group?.slug === CASH_IN_PERSON_GROUP;

  const issues = checkOfferForm(form, { decimals, isCashInPerson });
  const local: Record<string, string> = {};
  for (const issue of issues) local[issue.field] ??= t(`errors.${issue.key}`, issue.params);
  /** The server's word on a field until the vendor edits it; the browser's own checks after a visit. */
  const err = (field: string) =>
    serverErrors[field] ?? (submitted || touched.has(field.split('.')[0] ?? field) ? local[field] : undefined);

  const set = (patch: Partial<OfferForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    // An edit settles what the server said about that field; its other answers stay in view.
    const settled = new Set(Object.keys(patch).flatMap((key) => AFFECTED_FIELDS[key as keyof OfferForm]));
    const kept = Object.entries(serverErrors).filter(([field]) => !settled.has(field.split('.')[0] ?? field));
    if (kept.length < Object.keys(serverErrors).length) setServerErrors(Object.fromEntries(kept));
  };
  // Fields report themselves through data-field (controlAria); leaving one for another text field
  // marks it visited. Not when focus goes to a button, checkbox or radio: a message appearing
  // between press and release moves the layout, and the click would land beside its target.
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const field = (event.target as HTMLElement).dataset.field?.split('.')[0];
    const next = event.relatedTarget as HTMLElement | null;
    const typing = next?.matches('input:not([type="checkbox"]):not([type="radio"]), select, textarea') ?? false;
    if (field && typing && !touched.has(field)) setTouched(new Set([...touched, field]));
  };

  const focusFirst = (fields: string[]) => {
    const first = [...fields].sort((a, b) => fieldRank(a) - fieldRank(b))[0];
    // After React has painted the messages, so the control's description is current when read.
    if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const sent = compact(form);
    setForm(sent);
    setSubmitted(true);
    setSummary(undefined);
    setServerErrors({});
    const found = checkOfferForm(sent, { decimals, isCashInPerson });
    if (found.length > 0) {
      setSummary(t('offerEditor.fixFields'));
      focusFirst(found.map((i) => i.field));
      return;
    }
    setBusy(true);
    const path = offer ? `/rest/v1/offers/${offer.hash}` : '/rest/v1/offers';
    const result = await apiRequest<{ hash: string }>(
      offer ? 'PUT' : 'POST',
      localized(path, locale),
      requestBody(sent, isCashInPerson),
    );
    if (result.ok) {
      location.assign(`${props.doneUrl}?done=${offer ? 'updated' : 'created'}`);
      return;
    }
    setBusy(false);
    if (result.errors.some((e) => e.code === NETWORK_ERROR_CODE)) {
      setSummary(t('offerEditor.networkError'));
      return;
    }
    const fields: Record<string, string> = {};
    let other: string | undefined;
    for (const error of result.errors) {
      const details = error.details?.length ? error.details : [{ field: error.field ?? '', message: error.message }];
      for (const detail of details) {
        if (detail.field) fields[detail.field] ??= detail.message;
        else other ??= detail.message;
      }
    }
    setServerErrors(fields);
    const named = Object.keys(fields);
    setSummary(other ?? (named.length > 0 ? t('offerEditor.fixFields') : t('offerEditor.genericError')));
    focusFirst(named);
  };

  return (
    <EditorContext.Provider value={context}>
      <form className="offer-editor" onSubmit={submit} onBlur={onBlur} noValidate>
        <p className="alert alert-error editor-summary" role="alert">
          {summary}
        </p>
        <div className="editor-layout">
          <div className="editor-main">
            <Section id="offer-trade" title={t('offerEditor.section.trade')}>
              <Segmented
                field="type"
                legend={t('offerEditor.type.label')}
                value={form.type}
                options={[
                  { value: 'sell', label: t('offerEditor.type.sell') },
                  { value: 'buy', label: t('offerEditor.type.buy') },
                ]}
                onChange={(type) => set({ type })}
              />
              <Segmented
                field="crypto_currency_code"
                legend={t('offerEditor.crypto.label')}
                value={form.crypto}
                options={[
                  { value: 'BTC', label: t('offerEditor.crypto.btc') },
                  { value: 'USDT', label: t('offerEditor.crypto.usdt') },
                ]}
                onChange={(crypto) => set({ crypto })}
              />
              <CurrencyPicker
                currencies={currencies}
                value={form.currency}
                onChange={(code) => set({ currency: code })}
                error={err('currency')}
              />
            </Section>
            <Section id="offer-payment" title={t('offerEditor.section.payment')}>
              <MethodPicker
                groups={groups}
                methods={methods}
                value={form.paymentMethod}
                onChange={(slug) => set({ paymentMethod: slug })}
                error={err('payment_method')}
              />
              {isCashInPerson && (
                <LocationPicker
                  value={form.location}
                  onChange={(location) => set({ location })}
                  error={err('location_id')}
                />
              )}
              <Field
                field="payment_method_label"
                label={t('offerEditor.label.label')}
                hint={t('offerEditor.label.hint', { max: PAYMENT_METHOD_LABEL_MAX_LENGTH })}
                error={err('payment_method_label')}
              >
                <input
                  {...controlAria('payment_method_label', err('payment_method_label'), true)}
                  className="input"
                  value={form.label}
                  onChange={(e) => set({ label: e.target.value })}
                />
              </Field>
            </Section>
            <PriceSection form={form} set={set} err={err} />
            <LimitsSection form={form} set={set} err={err} decimals={decimals} />
            <TermsSection form={form} set={set} err={err} />
            <RequirementsSection form={form} set={set} err={err} />
            <VisibilitySection form={form} set={set} err={err} countries={countries} />
          </div>
          <div className="editor-side">
            <PricePreview
              currency={currency}
              crypto={form.crypto}
              type={form.type}
              priceType={form.priceType}
              margin={form.margin}
              fixedPrice={form.fixedPrice}
              groupSlug={group?.slug}
            />
          </div>
        </div>
        <div className="editor-actions">
          <button type="submit" className="btn btn-primary btn-lg" aria-busy={busy || undefined} disabled={busy}>
            {busy ? t('offerEditor.saving') : offer ? t('offerEditor.save') : t('offerEditor.publish')}
          </button>
          <a className="btn btn-ghost btn-lg" href={props.doneUrl}>
            {t('offerEditor.cancel')}
          </a>
        </div>
      </form>
    </EditorContext.Provider>
  );
}
