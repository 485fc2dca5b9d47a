import { useMemo } from 'react';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { PAYMENT_METHOD_LABEL_MAX_LENGTH } from '../../lib/shared/offer-rules.ts';
import { CurrencyPicker } from './CurrencyPicker.tsx';
import { EditorFunding } from './EditorFunding.tsx';
import { LocationPicker } from './LocationPicker.tsx';
import { MethodPicker } from './MethodPicker.tsx';
import { PricePreview } from './PricePreview.tsx';
import {
  LimitsSection,
  PriceSection,
  RequirementsSection,
  type SectionProps,
  TermsSection,
  VisibilitySection,
} from './sections.tsx';
import { TradeRulesSection } from './TradeRulesSection.tsx';
import type { EditableOffer, EditorCountry, EditorCurrency, EditorGroup, EditorMethod } from './types.ts';
import { controlAria, EditorContext, Field, Section, Segmented } from './ui.tsx';
import { useOfferEditor } from './use-offer-editor.ts';
import { useOfferPrice } from './use-offer-price.ts';

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
  /** The vendor's wallets (minor units), for the warning on a sell offer they cannot fund. */
  balances?: Record<'BTC' | 'USDT', number> | undefined;
  /** /wallet in the page's language: where the warning sends the vendor to deposit. */
  walletUrl: string;
}

type T = ReturnType<typeof islandTranslator>;

/** What the offer trades: its side, its coin and its currency. */
function TradeSection({ t, form, set, err, currencies }: SectionProps & { t: T; currencies: EditorCurrency[] }) {
  return (
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
  );
}

/** How the buyer pays: the method, the place for cash in person, and the vendor's label. */
function PaymentSection({
  t,
  form,
  set,
  err,
  groups,
  methods,
  isCashInPerson,
}: SectionProps & { t: T; groups: EditorGroup[]; methods: EditorMethod[]; isCashInPerson: boolean }) {
  return (
    <Section id="offer-payment" title={t('offerEditor.section.payment')}>
      <MethodPicker
        groups={groups}
        methods={methods}
        value={form.paymentMethod}
        onChange={(slug) => set({ paymentMethod: slug })}
        error={err('payment_method')}
      />
      {isCashInPerson && (
        <LocationPicker value={form.location} onChange={(location) => set({ location })} error={err('location_id')} />
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
  );
}

function EditorActions({ t, busy, isEdit, doneUrl }: { t: T; busy: boolean; isEdit: boolean; doneUrl: string }) {
  return (
    <div className="editor-actions">
      <button type="submit" className="btn btn-primary btn-lg" aria-busy={busy || undefined} disabled={busy}>
        {busy ? t('offerEditor.saving') : isEdit ? t('offerEditor.save') : t('offerEditor.publish')}
      </button>
      <a className="btn btn-ghost btn-lg" href={doneUrl}>
        {t('offerEditor.cancel')}
      </a>
    </div>
  );
}

export default function OfferEditor(props: OfferEditorProps) {
  const { locale, lang, messages, currencies, groups, methods, countries, offer } = props;
  const t = useMemo(() => islandTranslator(messages), [messages]);
  const context = useMemo(() => ({ t, lang, locale }), [t, lang, locale]);
  const editor = useOfferEditor(props, t);
  const { form, currency, group } = editor;
  const offerPrice = useOfferPrice(currency, form.crypto, form);
  const sections = { form, set: editor.set, err: editor.err };

  return (
    <EditorContext.Provider value={context}>
      <form className="offer-editor" onSubmit={editor.submit} onBlur={editor.onBlur} noValidate>
        <p className="alert alert-error editor-summary" role="alert">
          {editor.summary}
        </p>
        <div className="editor-layout">
          <div className="editor-main">
            <TradeSection {...sections} t={t} currencies={currencies} />
            <PaymentSection
              {...sections}
              t={t}
              groups={groups}
              methods={methods}
              isCashInPerson={editor.isCashInPerson}
            />
            <PriceSection {...sections} />
            <LimitsSection {...sections} decimals={editor.decimals} />
            <TermsSection {...sections} />
            <TradeRulesSection {...sections} />
            <RequirementsSection {...sections} />
            <VisibilitySection {...sections} countries={countries} />
          </div>
          <div className="editor-side">
            <PricePreview
              currency={currency}
              crypto={form.crypto}
              type={form.type}
              offerPrice={offerPrice}
              groupSlug={group?.slug}
            />
            <EditorFunding
              type={form.type}
              crypto={form.crypto}
              fiatMin={form.fiatMin}
              price={offerPrice.price}
              decimals={editor.decimals}
              groupSlug={group?.slug}
              balances={props.balances}
              walletHref={props.walletUrl}
            />
          </div>
        </div>
        <EditorActions t={t} busy={editor.busy} isEdit={offer !== undefined} doneUrl={props.doneUrl} />
      </form>
    </EditorContext.Provider>
  );
}
