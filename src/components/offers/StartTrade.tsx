import { useId } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import { formatFiat } from '../../lib/shared/format.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { StartTradeStep } from '../../lib/shared/start-trade-decision.ts';
import type { OfferTradeRequirement } from '../../lib/shared/trade-requirements.ts';
import { GiftCardsModal } from './GiftCardsModal.tsx';
import { ProofsAsked } from './ProofsAsked.tsx';
import {
  AmountChips,
  AmountInputs,
  BlockList,
  CapNote,
  FailedAlert,
  PayerNameField,
  problemMessage,
  ReloadRequired,
  WarningModal,
} from './start-trade-parts.tsx';
import { useStartTrade } from './use-start-trade.ts';

// The start-trade widget of an offer (spec sections 4 and 5): how much in fiat or crypto, the
// reasons this person cannot start (from the server's gate), and on submit the first step of the
// decision order — the gift cards to pay with, a warning modal, or the trade itself. States: default, and
// page-reload-required when the server answers `meta.action = "reload"` (spec section 8).

export interface StartTradeProps {
  /** The page's locale: the trade page opens in the same language. */
  locale: Locale;
  lang: string;
  messages: IslandMessages;
  offer: {
    hash: string;
    crypto: string;
    fiatCurrency: string;
    price: number;
    fiatDecimals: number;
    predefined: number[];
    isGold: boolean;
    originalData: string;
    paymentMethod: string;
    /** Margin offers move with the market; fixed ones keep their price. */
    priceType: 'margin' | 'fixed';
    margin: number;
    /** Units of the offer's currency per US dollar, for prices that arrive in dollars. */
    fiatPerUsd: number;
    /** Reference ids a gift-card trade's start names (spec section 7). */
    fiatCurrencyId: number;
    paymentMethodId: number;
    /** The person pays and must say from whose account (a no-third-parties offer, decision 112). */
    requirePayerName: boolean;
    /** The proofs the vendor asks of the person in the trade (decision 128), listed before the button. */
    proofs: OfferTradeRequirement[];
  };
  /** What this person may trade; `cappedBy` says why the maximum is below the offer's. */
  limits: {
    min: number;
    max: number;
    cappedBy?: 'verification' | 'new_partner' | undefined;
    level?: number | undefined;
  };
  /** The amount searched for on the listing, in the offer's currency: the fiat field starts with it. */
  initialAmount?: string | undefined;
  /** The person buys crypto (the offer sells). */
  personBuys: boolean;
  blocks: { code: string; message: string }[];
  step: StartTradeStep;
  /** `otherOffers`: the listing this offer belongs to, for when it cannot be traded now. */
  links: {
    signIn: string;
    settings: string;
    vendorTerms: string;
    giftCards: string;
    otherOffers: string;
    verification: string;
  };
}

export default function StartTrade(props: StartTradeProps) {
  const { limits, blocks, lang } = props;
  const t = islandTranslator(props.messages);
  const id = useId();
  const trade = useStartTrade(props);
  const { offer, fiat, touched, problem, blocked, status } = trade;
  const fiatText = (value: number) => formatFiat(value, offer.fiatCurrency, lang, offer.fiatDecimals);

  if (status === 'page-reload-required') return <ReloadRequired t={t} />;

  const action = props.personBuys
    ? t('offer.start.buy', { crypto: offer.crypto })
    : t('offer.start.sell', { crypto: offer.crypto });
  const problemText = problemMessage(t, problem, limits, fiatText);

  return (
    <form className="start-trade card" onSubmit={trade.submit} noValidate data-tour="how-much">
      <h2 className="h3">{props.personBuys ? t('offer.howMuch.buy') : t('offer.howMuch.sell')}</h2>

      {offer.predefined.length > 0 && (
        <AmountChips t={t} predefined={offer.predefined} fiat={fiat} fiatText={fiatText} onFiat={trade.onFiat} />
      )}

      <AmountInputs
        t={t}
        id={id}
        offer={offer}
        fiat={fiat}
        crypto={trade.crypto}
        invalid={touched && problem !== undefined}
        onFiat={trade.onFiat}
        onCrypto={trade.onCrypto}
        onFiatBlur={() => trade.setTouched(true)}
      />
      <p id={`${id}-limits`} className="muted start-limits">
        {tIsolated(t, 'offer.limits', { min: fiatText(limits.min), max: fiatText(limits.max) })}
      </p>
      <CapNote t={t} limits={limits} fiatText={fiatText} verificationHref={props.links.verification} />
      <p id={`${id}-problem`} className="field-error" role={touched && problemText ? 'alert' : undefined}>
        {touched ? problemText : ''}
      </p>

      {offer.requirePayerName && <PayerNameField t={t} id={id} trade={trade} />}

      <ProofsAsked t={t} id={id} proofs={offer.proofs} isGold={offer.isGold} />

      {blocked && <BlockList t={t} blocks={blocks} links={props.links} />}

      {status === 'failed' && <FailedAlert t={t} errors={trade.errors} />}

      <button type="submit" className="btn btn-primary btn-lg start-submit" disabled={blocked || status === 'posting'}>
        {status === 'posting' ? t('offer.start.posting') : action}
      </button>

      {trade.modal && (
        <WarningModal
          step={trade.modal}
          t={t}
          values={{ method: offer.paymentMethod, crypto: offer.crypto }}
          onCancel={() => trade.setModal(null)}
          onConfirm={() => void trade.start()}
        />
      )}
      {trade.giftCards && (
        <GiftCardsModal
          t={t}
          cards={trade.giftCards}
          fiat={fiat}
          fiatDecimals={offer.fiatDecimals}
          method={offer.paymentMethod}
          fiatText={fiatText}
          giftCardsHref={props.links.giftCards}
          onCancel={() => trade.setGiftCards(null)}
          onConfirm={(chosen) => void trade.startWithCards(trade.giftCards ?? [], chosen)}
        />
      )}
    </form>
  );
}
