import { useMemo } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import { formatFiat } from '../../lib/shared/format.ts';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { fromMinorUnits } from '../../lib/shared/money.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { Field, fieldAria } from '../form-field.tsx';
import { CardForm } from './CardForm.tsx';
import { CardSummary } from './CardSummary.tsx';
import type { CurrencyChoice } from './types.ts';
import { useGiftCodeTrade } from './use-gift-code-trade.ts';

// The gift-code trade page (spec section 2, /offers/{offerHash}/gift-code-trade): for a gift-card
// offer whose vendor sells, the buyer sets the amount, picks saved cards of the offer's brand and
// currency or adds new ones, and starts the trade once the cards make up the amount exactly.

export interface GiftCodeTradeProps {
  locale: Locale;
  lang: string;
  messages: IslandMessages;
  offer: {
    hash: string;
    vendor: string;
    vendorHref: string;
    brand: { id: number; name: string };
    currency: CurrencyChoice;
    crypto: 'BTC' | 'USDT';
    price: number;
    limits: { min: number; max: number };
    originalData: string;
  };
  /** The amount the page opened with (amount_fiat), as text. */
  amount: string;
  /** Free cards of the offer's brand and currency the address named (cards[]), and the others. */
  chosen: GiftCardView[];
  others: GiftCardView[];
  /** Why the reader cannot start a trade on this offer (the offer page's gate), in their language. */
  blocks: string[];
}

type T = ReturnType<typeof islandTranslator>;
type State = ReturnType<typeof useGiftCodeTrade>;

export default function GiftCodeTrade(props: GiftCodeTradeProps) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const state = useGiftCodeTrade(props, t);
  const { offer } = props;
  const money = (amount: number) => formatFiat(amount, offer.currency.code, props.lang, offer.currency.decimals);
  const choices = useMemo(
    () => ({ kind: 'fixed' as const, brand: offer.brand, currency: offer.currency }),
    [offer.brand, offer.currency],
  );
  const card = (item: GiftCardView, action: 'add' | 'remove') => (
    <CardSummary
      t={t}
      lang={props.lang}
      card={item}
      decimals={offer.currency.decimals}
      actions={
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => (action === 'add' ? state.choose(item.id) : state.unchoose(item.id))}
          aria-label={t(`giftCards.trade.${action}Named`, { card: money(item.value) })}
        >
          {t(`giftCards.trade.${action}`)}
        </button>
      }
    />
  );
  return (
    <div className="gct-layout">
      <OfferPanel t={t} props={props} state={state} money={money} />
      <section className="card gc-section gct-chosen" aria-labelledby="gct-chosen-title" data-testid="gct-chosen">
        <h2 className="h3" id="gct-chosen-title">
          {t('giftCards.trade.chosenTitle')}
        </h2>
        {state.chosen.length === 0 ? (
          <p className="muted">{t('giftCards.trade.chosenEmpty')}</p>
        ) : (
          <ul className="gc-list">
            {state.chosen.map((item) => (
              <li key={item.id}>{card(item, 'remove')}</li>
            ))}
          </ul>
        )}
        <Checkout t={t} state={state} money={money} decimals={offer.currency.decimals} />
      </section>
      {state.others.length > 0 && (
        <section className="card gc-section gct-others" aria-labelledby="gct-others-title">
          <h2 className="h3" id="gct-others-title">
            {t('giftCards.trade.othersTitle')}
          </h2>
          <ul className="gc-list">
            {state.others.map((item) => (
              <li key={item.id}>{card(item, 'add')}</li>
            ))}
          </ul>
        </section>
      )}
      <section className="card gc-section gct-form" aria-labelledby="gct-form-title">
        <h2 className="h3" id="gct-form-title">
          {t('giftCards.trade.addTitle')}
        </h2>
        <p className="muted gc-lead">
          {tIsolated(t, 'giftCards.trade.addLead', { brand: offer.brand.name, currency: offer.currency.code })}
        </p>
        <CardForm
          t={t}
          choices={choices}
          onSaved={state.added}
          onBusy={state.onBusy}
          submitLabel={t('giftCards.trade.addSubmit')}
        />
      </section>
    </div>
  );
}

function OfferPanel({
  t,
  props,
  state,
  money,
}: {
  t: T;
  props: GiftCodeTradeProps;
  state: State;
  money: (amount: number) => string;
}) {
  const { offer } = props;
  const amountError = state.problem && state.problem !== 'empty' ? t(`giftCards.trade.amount.${state.problem}`) : '';
  return (
    <aside className="card gc-section gct-offer" aria-labelledby="gct-offer-title">
      <h2 className="h3" id="gct-offer-title">
        {t('giftCards.trade.offerTitle')}
      </h2>
      <dl className="gct-facts">
        <div>
          <dt>{t('giftCards.trade.vendor')}</dt>
          <dd>
            <a className="text-link" href={offer.vendorHref}>
              <bdi>{offer.vendor}</bdi>
            </a>
          </dd>
        </div>
        <div>
          <dt>{t('giftCards.field.brand')}</dt>
          <dd dir="auto">{offer.brand.name}</dd>
        </div>
        <div>
          <dt>{t('giftCards.trade.price', { crypto: offer.crypto })}</dt>
          <dd data-testid="gct-price">
            <bdi>{money(state.price)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('giftCards.trade.limits')}</dt>
          <dd>
            <bdi>{money(offer.limits.min)}</bdi> – <bdi>{money(offer.limits.max)}</bdi>
          </dd>
        </div>
      </dl>
      <Field id="gct-amount" label={t('giftCards.trade.amount', { currency: offer.currency.code })} error={amountError}>
        <input
          {...fieldAria('gct-amount', amountError || undefined)}
          className="input"
          inputMode="decimal"
          autoComplete="off"
          value={state.fiat}
          onChange={(e) => state.onFiat(e.target.value)}
        />
      </Field>
      {props.blocks.length > 0 && (
        <ul className="alert alert-error gct-blocks">
          {props.blocks.map((block) => (
            <li key={block}>{block}</li>
          ))}
        </ul>
      )}
    </aside>
  );
}

/** The running total against the amount, what is still missing, and the start. */
function Checkout({
  t,
  state,
  money,
  decimals,
}: {
  t: T;
  state: State;
  money: (amount: number) => string;
  decimals: number;
}) {
  const major = (minor: number) => Number(fromMinorUnits(minor, decimals));
  const wanted = state.wantedMinor ?? 0;
  const gap = wanted - state.totalMinor;
  const status =
    state.chosen.length === 0 || wanted === 0
      ? t('giftCards.trade.status.none')
      : gap > 0
        ? tIsolated(t, 'giftCards.trade.status.short', { amount: money(major(gap)) })
        : gap < 0
          ? tIsolated(t, 'giftCards.trade.status.over', { amount: money(major(-gap)) })
          : t('giftCards.trade.status.match');
  return (
    <div className="gct-checkout">
      <p className="gct-total" data-testid="gct-total">
        {tIsolated(t, 'giftCards.trade.total', { total: money(major(state.totalMinor)), amount: money(major(wanted)) })}
      </p>
      <p
        className={gap === 0 && state.chosen.length > 0 ? 'gct-status gct-status-ok' : 'gct-status'}
        aria-live="polite"
      >
        {status}
      </p>
      {state.notice && (
        <p
          className={`alert ${state.notice.kind === 'danger' ? 'alert-error' : 'alert-info'}`}
          role={state.notice.kind === 'danger' ? 'alert' : 'status'}
        >
          {state.notice.text}
        </p>
      )}
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={!state.ready}
        aria-busy={state.starting || undefined}
        onClick={() => void state.start()}
        data-testid="gct-start"
      >
        {state.starting ? t('giftCards.trade.starting') : t('giftCards.trade.start')}
      </button>
    </div>
  );
}
