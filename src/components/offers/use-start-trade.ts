import { useEffect, useRef, useState } from 'react';
import { type ApiResult, apiRequest } from '../../lib/api-client.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { localizePath } from '../../lib/shared/i18n/locales.ts';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import { nameIssue, normalizeName } from '../../lib/shared/person-name.ts';
import type { StartTradeStep } from '../../lib/shared/start-trade-decision.ts';
import type { GiftCardView } from '../../lib/shared/views/gift-cards.ts';
import { $rates, type Rates } from '../../stores/rates.ts';
import { amountProblem, cryptoForFiat, fiatForCrypto, isAmountText } from './amounts.ts';
import { coversExactly, fetchUnusedCards, giftCodeTradePath, postGiftTrade } from './gift-card-start.ts';
import type { StartTradeProps } from './StartTrade.tsx';

// The start-trade widget's state: the two amounts (each follows the other), the live price of a
// margin offer, and the submit that opens a warning, the gift cards to choose (decision 1), or
// starts the trade.

export type StartTradeStatus = 'default' | 'posting' | 'page-reload-required' | 'failed';

type Offer = StartTradeProps['offer'];

/** A margin offer's price from the market's (US dollars per unit), if it has one for the coin. */
function marginPriceFrom(rates: Rates | undefined, offer: Offer): number | undefined {
  if (offer.priceType !== 'margin') return undefined;
  const usd = rates?.usd[offer.crypto];
  if (usd === undefined) return undefined;
  const factor = 10 ** offer.fiatDecimals;
  return Math.round(usd * offer.fiatPerUsd * (1 + offer.margin / 100) * factor) / factor;
}

/** The two amount fields: fiat leads, crypto follows at the price (and the other way round). */
function useAmounts(props: StartTradeProps, price: number, cryptoDecimals: number) {
  // Starts at the amount searched for on the listing, else at the smallest amount the person may
  // trade, unless they must pick a predefined one.
  const initialFiat = props.initialAmount ?? (props.offer.predefined.length > 0 ? '' : String(props.limits.min));
  const [fiat, setFiat] = useState(initialFiat);
  const [crypto, setCrypto] = useState(() => cryptoForFiat(initialFiat, price, cryptoDecimals));
  const onFiat = (text: string) => {
    if (!isAmountText(text)) return;
    setFiat(text);
    setCrypto(cryptoForFiat(text, price, cryptoDecimals));
  };
  const onCrypto = (text: string) => {
    if (!isAmountText(text)) return;
    setCrypto(text);
    setFiat(fiatForCrypto(text, price, props.offer.fiatDecimals));
  };
  return { fiat, crypto, setCrypto, onFiat, onCrypto };
}

function postTrade(
  offer: Offer,
  fiat: string,
  cryptoDecimals: number,
  payerName: string,
): Promise<ApiResult<{ chatUrl: string }>> {
  return apiRequest<{ chatUrl: string }>('POST', '/rest/v1/trade', {
    offer_hash: offer.hash,
    // The fiat amount is the trade's; its crypto at the crypto's decimals, whatever was typed.
    amount_btc: cryptoForFiat(fiat, offer.price, cryptoDecimals),
    amount_fiat: fiat,
    gold_terms: offer.isGold ? 1 : 0,
    original_data: offer.originalData,
    // Spec section 5: only when the offer requires it.
    ...(offer.requirePayerName ? { payer_name: normalizeName(payerName) } : {}),
  });
}

/** The price a `fiat_and_btc_amount_mismatch` answer names: the market moved since the page loaded. */
function movedPrice(result: ApiResult<unknown>): number | undefined {
  if (result.errors[0]?.code !== 'fiat_and_btc_amount_mismatch') return undefined;
  const price = result.meta?.fiatPricePerCrypto;
  return typeof price === 'number' && price > 0 ? price : undefined;
}

/** The request's state: posting, failed with the server's messages, or a reload required. */
function useTradeRequest(props: StartTradeProps, onPrice: (price: number) => void) {
  const [modal, setModal] = useState<StartTradeStep | null>(null);
  const [giftCards, setGiftCards] = useState<GiftCardView[] | null>(null);
  const [status, setStatus] = useState<StartTradeStatus>('default');
  const [errors, setErrors] = useState<string[]>([]);

  const begin = () => {
    setModal(null);
    setGiftCards(null);
    setStatus('posting');
    setErrors([]);
  };
  const fail = (result: ApiResult<unknown>, what: string) => {
    if (result.meta?.action === 'reload') {
      setStatus('page-reload-required');
      return;
    }
    // Spec section 8: a stale price refreshes the market rate; the message says to check the amounts.
    const price = movedPrice(result);
    if (price !== undefined) onPrice(price);
    if (result.status >= 500) console.error(what, result.status, result.errors);
    setErrors(result.errors.map((e) => e.message).filter(Boolean));
    setStatus('failed');
  };
  const open = (result: ApiResult<{ chatUrl: string }>, what: string) => {
    if (result.ok && result.data?.chatUrl) location.assign(localizePath(props.locale, result.data.chatUrl));
    else fail(result, what);
  };

  const start = async (offer: Offer, fiat: string, cryptoDecimals: number, payerName: string) => {
    begin();
    open(await postTrade(offer, fiat, cryptoDecimals, payerName), 'trade start failed');
  };

  /** Cards that make up the amount start the trade; otherwise the gift-code trade page takes over. */
  const startWithCards = async (
    offer: Offer,
    fiat: string,
    cryptoDecimals: number,
    cards: readonly GiftCardView[],
    chosen: ReadonlySet<string>,
  ) => {
    const ids = cards.filter((card) => chosen.has(card.id)).map((card) => card.id);
    if (!coversExactly(cards, chosen, fiat, offer.fiatDecimals)) {
      location.assign(localizePath(props.locale, giftCodeTradePath(offer.hash, fiat, ids)));
      return;
    }
    begin();
    open(await postGiftTrade(offer, fiat, ids, cryptoDecimals), 'gift trade start failed');
  };

  /** Decision 1: the person's free cards of the offer's brand; none → straight on. */
  const askForCards = async (offer: Offer, fiat: string, cryptoDecimals: number) => {
    begin();
    const result = await fetchUnusedCards(offer.hash, fiat);
    if (!result.ok) return fail(result, 'gift cards check failed');
    const cards = result.data ?? [];
    setStatus('default');
    if (cards.length > 0) setGiftCards(cards);
    else await startWithCards(offer, fiat, cryptoDecimals, cards, new Set());
  };

  return { modal, setModal, giftCards, setGiftCards, status, errors, start, askForCards, startWithCards };
}

export function useStartTrade(props: StartTradeProps) {
  const { limits, blocks } = props;
  const [price, setPrice] = useState(props.offer.price);
  const offer = { ...props.offer, price };
  const cryptoDecimals = CRYPTO_DECIMALS[props.offer.crypto as 'BTC' | 'USDT'] ?? 8;
  const { fiat, crypto, setCrypto, onFiat, onCrypto } = useAmounts(props, price, cryptoDecimals);
  // An amount brought from the listing says at once what is wrong with it (above this person's maximum…).
  const [touched, setTouched] = useState(props.initialAmount !== undefined);
  const [payerName, setPayerName] = useState('');
  const payerProblem = props.offer.requirePayerName ? nameIssue(payerName) : null;

  // The amount typed in fiat stays, its crypto follows, and the price on the page moves with it.
  const applyPrice = useRef((_next: number) => {});
  applyPrice.current = (next) => {
    setPrice(next);
    setCrypto(cryptoForFiat(fiat, next, cryptoDecimals));
    const shown = document.querySelector('[data-price]');
    if (shown) shown.textContent = formatFiat(next, props.offer.fiatCurrency, props.lang, props.offer.fiatDecimals);
  };
  const request = useTradeRequest(props, (next) => applyPrice.current(next));

  // A margin offer's price follows the market (the shared `rates` store, US dollars per unit).
  // Read in an effect, after hydration, so the first render is the server's price.
  const onRates = useRef((_rates: Rates | undefined) => {});
  onRates.current = (rates) => {
    const next = marginPriceFrom(rates, props.offer);
    if (next !== undefined) applyPrice.current(next);
  };
  useEffect(() => $rates.subscribe((rates) => onRates.current(rates)), []);

  const problem = amountProblem(fiat, { min: limits.min, max: limits.max, predefined: offer.predefined });
  const blocked = blocks.length > 0;
  const start = () => request.start(offer, fiat, cryptoDecimals, payerName);
  const startWithCards = (cards: readonly GiftCardView[], chosen: ReadonlySet<string>) =>
    request.startWithCards(offer, fiat, cryptoDecimals, cards, chosen);
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    setTouched(true);
    if (blocked || problem || payerProblem || request.status === 'posting') return;
    if (props.step === 'start') void start();
    else if (props.step === 'choose_gift_cards') void request.askForCards(offer, fiat, cryptoDecimals);
    else request.setModal(props.step);
  };
  return {
    ...request,
    offer,
    fiat,
    crypto,
    onFiat,
    onCrypto,
    touched,
    setTouched,
    problem,
    payerName,
    setPayerName,
    payerProblem,
    blocked,
    start,
    startWithCards,
    submit,
  };
}
