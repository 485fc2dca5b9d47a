import { useCallback, useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { localizePath } from '../../lib/shared/i18n/locales.ts';
import { AMOUNT_PATTERN } from '../../lib/shared/input-patterns.ts';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import type { OfferView } from '../../lib/shared/views/offers.ts';
import { amountProblem } from '../offers/amounts.ts';
import { giftCodeTradePath, postGiftTrade } from '../offers/gift-card-start.ts';
import type { GiftCodeTradeProps } from './GiftCodeTrade.tsx';
import { amountMinor, cardsTotalMinor } from './types.ts';

// The gift-code trade page's state (spec section 4, "Gift-code card step"): the amount, the chosen
// cards and the others to add, and the start. The step is READY when at least one card is chosen,
// the cards add up to the amount exactly, nothing is wrong, and neither request (a card being
// saved, the start) is running; only then can the trade start.

type T = (key: string, params?: Record<string, string | number>) => string;

function useCards(props: GiftCodeTradeProps) {
  const [chosen, setChosen] = useState(props.chosen);
  const [others, setOthers] = useState(props.others);
  const choose = (id: string) => {
    const card = others.find((c) => c.id === id);
    if (!card) return;
    setOthers(others.filter((c) => c.id !== id));
    setChosen([...chosen, card]);
  };
  const unchoose = (id: string) => {
    const card = chosen.find((c) => c.id === id);
    if (!card) return;
    setChosen(chosen.filter((c) => c.id !== id));
    setOthers([card, ...others]);
  };
  // A card saved here is of the offer's brand and currency: it goes straight into the trade.
  const added = (card: GiftCardView) => setChosen((list) => [...list, card]);
  return { chosen, others, choose, unchoose, added };
}

export function useGiftCodeTrade(props: GiftCodeTradeProps, t: T) {
  const { offer } = props;
  const decimals = offer.currency.decimals;
  const [fiat, setFiat] = useState(props.amount);
  const [price, setPrice] = useState(offer.price);
  const [formBusy, setFormBusy] = useState(false);
  const [starting, setStarting] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'danger' | 'info'; text: string } | null>(null);
  const cards = useCards(props);

  const onFiat = (text: string) => {
    if (AMOUNT_PATTERN.test(text)) setFiat(text);
  };
  const onBusy = useCallback((busy: boolean) => setFormBusy(busy), []);

  // The address keeps the amount and the cards, so a reload or a shared link opens the same step.
  const ids = cards.chosen.map((card) => card.id);
  const path = giftCodeTradePath(offer.hash, fiat, ids);
  useEffect(() => {
    history.replaceState(history.state, '', localizePath(props.locale, path));
  }, [path, props.locale]);

  const problem = amountProblem(fiat, { min: offer.limits.min, max: offer.limits.max, predefined: [] });
  const wantedMinor = amountMinor(fiat, decimals);
  const totalMinor = cardsTotalMinor(cards.chosen, decimals);
  const error = problem ?? (wantedMinor === undefined ? 'empty' : undefined);
  const ready =
    props.blocks.length === 0 &&
    cards.chosen.length > 0 &&
    totalMinor === wantedMinor &&
    error === undefined &&
    !formBusy &&
    !starting;

  /** The market moved: the offer read again for its current price, said to the reader. */
  const refreshPrice = async (fallback: unknown) => {
    const answer = await apiGet<OfferView>(`/rest/v1/offers/${encodeURIComponent(offer.hash)}`);
    const next = answer.data?.fiatPricePerCrypto ?? (typeof fallback === 'number' ? fallback : price);
    setPrice(next);
    const shown = formatFiat(next, offer.currency.code, props.lang, decimals);
    setNotice({ kind: 'info', text: t('giftCards.trade.priceChanged', { price: shown }) });
  };

  const start = async () => {
    if (!ready) return;
    setStarting(true);
    setNotice(null);
    const cryptoDecimals = CRYPTO_DECIMALS[offer.crypto] ?? 8;
    const result = await postGiftTrade(
      {
        hash: offer.hash,
        price,
        fiatDecimals: decimals,
        originalData: offer.originalData,
        fiatCurrencyId: offer.currency.id,
        paymentMethodId: offer.brand.id,
      },
      fiat,
      ids,
      cryptoDecimals,
    );
    if (result.ok && result.data?.chatUrl) {
      location.assign(localizePath(props.locale, result.data.chatUrl));
      return;
    }
    setStarting(false);
    if (result.errors[0]?.code === 'fiat_and_btc_amount_mismatch') {
      await refreshPrice(result.meta?.fiatPricePerCrypto);
      return;
    }
    setNotice({ kind: 'danger', text: result.errors[0]?.message || t('giftCards.trade.failed') });
  };

  return { ...cards, fiat, onFiat, price, problem, wantedMinor, totalMinor, ready, starting, notice, onBusy, start };
}
