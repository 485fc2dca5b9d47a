import { useEffect, useRef, useState } from 'react';
import { type ApiResult, apiRequest } from '../../lib/api-client.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { localizePath } from '../../lib/shared/i18n/locales.ts';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import type { StartTradeStep } from '../../lib/shared/start-trade-decision.ts';
import { $rates, type Rates } from '../../stores/rates.ts';
import { amountProblem, cryptoForFiat, fiatForCrypto, isAmountText } from './amounts.ts';
import type { StartTradeProps } from './StartTrade.tsx';

// The start-trade widget's state: the two amounts (each follows the other), the live price of a
// margin offer, and the submit that opens a warning or starts the trade.

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
  // Starts at the smallest amount the person may trade, unless they must pick a predefined one.
  const initialFiat = props.offer.predefined.length > 0 ? '' : String(props.limits.min);
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

function postTrade(offer: Offer, fiat: string, cryptoDecimals: number): Promise<ApiResult<{ chatUrl: string }>> {
  return apiRequest<{ chatUrl: string }>('POST', '/rest/v1/trade', {
    offer_hash: offer.hash,
    // The fiat amount is the trade's; its crypto at the crypto's decimals, whatever was typed.
    amount_btc: cryptoForFiat(fiat, offer.price, cryptoDecimals),
    amount_fiat: fiat,
    gold_terms: offer.isGold ? 1 : 0,
    original_data: offer.originalData,
  });
}

/** The request's state: posting, failed with the server's messages, or a reload required. */
function useTradeRequest(props: StartTradeProps) {
  const [modal, setModal] = useState<StartTradeStep | null>(null);
  const [status, setStatus] = useState<StartTradeStatus>('default');
  const [errors, setErrors] = useState<string[]>([]);
  const start = async (offer: Offer, fiat: string, cryptoDecimals: number) => {
    setModal(null);
    setStatus('posting');
    setErrors([]);
    const result = await postTrade(offer, fiat, cryptoDecimals);
    if (result.ok && result.data?.chatUrl) {
      location.assign(localizePath(props.locale, result.data.chatUrl));
      return;
    }
    if (result.meta?.action === 'reload') {
      setStatus('page-reload-required');
      return;
    }
    if (result.status >= 500) console.error('trade start failed', result.status, result.errors);
    setErrors(result.errors.map((e) => e.message));
    setStatus('failed');
  };
  return { modal, setModal, status, errors, start };
}

export function useStartTrade(props: StartTradeProps) {
  const { limits, blocks } = props;
  const [price, setPrice] = useState(props.offer.price);
  const offer = { ...props.offer, price };
  const cryptoDecimals = CRYPTO_DECIMALS[props.offer.crypto as 'BTC' | 'USDT'] ?? 8;
  const { fiat, crypto, setCrypto, onFiat, onCrypto } = useAmounts(props, price, cryptoDecimals);
  const [touched, setTouched] = useState(false);
  const request = useTradeRequest(props);

  // A margin offer's price follows the market (the shared `rates` store, US dollars per unit): the
  // amount typed in fiat stays, its crypto follows, and the price on the page moves with it. Read
  // in an effect, after hydration, so the first render is the server's price.
  const onRates = useRef((_rates: Rates | undefined) => {});
  onRates.current = (rates) => {
    const next = marginPriceFrom(rates, props.offer);
    if (next === undefined) return;
    setPrice(next);
    setCrypto(cryptoForFiat(fiat, next, cryptoDecimals));
    const shown = document.querySelector('[data-price]');
    if (shown) shown.textContent = formatFiat(next, props.offer.fiatCurrency, props.lang, props.offer.fiatDecimals);
  };
  useEffect(() => $rates.subscribe((rates) => onRates.current(rates)), []);

  const problem = amountProblem(fiat, { min: limits.min, max: limits.max, predefined: offer.predefined });
  const blocked = blocks.length > 0;
  const start = () => request.start(offer, fiat, cryptoDecimals);
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    setTouched(true);
    if (blocked || problem || request.status === 'posting') return;
    if (props.step === 'start') void start();
    else request.setModal(props.step);
  };
  return { ...request, offer, fiat, crypto, onFiat, onCrypto, touched, setTouched, problem, blocked, start, submit };
}
