import { useId, useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { CRYPTO_DECIMALS } from '../../lib/shared/money.ts';
import type { StartTradeStep } from '../../lib/shared/start-trade-decision.ts';
import { type RealtimeEvent, useChannel } from '../../lib/use-channel.ts';
import { useModalDialog } from '../../lib/use-modal-dialog.ts';
import { amountProblem, cryptoForFiat, fiatForCrypto, isAmountText } from './amounts.ts';

// The start-trade widget of an offer (spec sections 4 and 5): how much in fiat or crypto, the
// reasons this person cannot start (from the server's gate), and on submit the first step of the
// decision order — a warning modal, or the trade itself. States: default, and
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
  };
  limits: { min: number; max: number };
  /** The person buys crypto (the offer sells). */
  personBuys: boolean;
  blocks: { code: string; message: string }[];
  step: StartTradeStep;
  links: { signIn: string; settings: string; vendorTerms: string };
}

type Status = 'default' | 'posting' | 'page-reload-required' | 'failed';

/** Where each reason sends the person to do something about it. */
const BLOCK_ACTIONS: Record<string, keyof StartTradeProps['links']> = {
  sign_in_required: 'signIn',
  email_not_verified: 'settings',
};

export default function StartTrade(props: StartTradeProps) {
  const { limits, blocks, lang } = props;
  const [price, setPrice] = useState(props.offer.price);
  const offer = { ...props.offer, price };
  const t = islandTranslator(props.messages);
  const id = useId();
  const cryptoDecimals = CRYPTO_DECIMALS[props.offer.crypto as 'BTC' | 'USDT'] ?? 8;
  // Starts at the smallest amount the person may trade, unless they must pick a predefined one.
  const initialFiat = offer.predefined.length > 0 ? '' : String(limits.min);
  const [fiat, setFiat] = useState(initialFiat);
  const [crypto, setCrypto] = useState(() => cryptoForFiat(initialFiat, offer.price, cryptoDecimals));
  const [touched, setTouched] = useState(false);
  const [modal, setModal] = useState<StartTradeStep | null>(null);
  const [status, setStatus] = useState<Status>('default');
  const [errors, setErrors] = useState<string[]>([]);

  // A margin offer's price follows the market (the `rates` channel gives US dollars per unit): the
  // amount typed in fiat stays, its crypto follows, and the price on the page moves with it.
  useChannel('rates', (event: RealtimeEvent) => {
    if (props.offer.priceType !== 'margin' || event.type !== 'rates') return;
    const usd = (event.payload as { usd?: Record<string, number> } | undefined)?.usd?.[props.offer.crypto];
    if (typeof usd !== 'number' || !(usd > 0)) return;
    const factor = 10 ** props.offer.fiatDecimals;
    const next = Math.round(usd * props.offer.fiatPerUsd * (1 + props.offer.margin / 100) * factor) / factor;
    setPrice(next);
    setCrypto(cryptoForFiat(fiat, next, cryptoDecimals));
    const shown = document.querySelector('[data-price]');
    if (shown) shown.textContent = formatFiat(next, props.offer.fiatCurrency, lang, props.offer.fiatDecimals);
  });

  const problem = amountProblem(fiat, { min: limits.min, max: limits.max, predefined: offer.predefined });
  const blocked = blocks.length > 0;
  const fiatText = (value: number) => formatFiat(value, offer.fiatCurrency, lang, offer.fiatDecimals);

  const onFiat = (text: string) => {
    if (!isAmountText(text)) return;
    setFiat(text);
    setCrypto(cryptoForFiat(text, offer.price, cryptoDecimals));
  };
  const onCrypto = (text: string) => {
    if (!isAmountText(text)) return;
    setCrypto(text);
    setFiat(fiatForCrypto(text, offer.price, offer.fiatDecimals));
  };

  const start = async () => {
    setModal(null);
    setStatus('posting');
    setErrors([]);
    const result = await apiRequest<{ chatUrl: string }>('POST', '/rest/v1/trade', {
      offer_hash: offer.hash,
      // The fiat amount is the trade's; its crypto at the crypto's decimals, whatever was typed.
      amount_btc: cryptoForFiat(fiat, offer.price, cryptoDecimals),
      amount_fiat: fiat,
      gold_terms: offer.isGold ? 1 : 0,
      original_data: offer.originalData,
    });
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

  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    setTouched(true);
    if (blocked || problem || status === 'posting') return;
    if (props.step === 'start') void start();
    else setModal(props.step);
  };

  if (status === 'page-reload-required') {
    return (
      <div className="start-trade card" data-tour="how-much">
        <p className="start-alert" role="alert">
          {t('offer.start.reloadRequired')}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
          {t('offer.start.reload')}
        </button>
      </div>
    );
  }

  const action = props.personBuys
    ? t('offer.start.buy', { crypto: offer.crypto })
    : t('offer.start.sell', { crypto: offer.crypto });
  const problemText =
    problem === 'below_min'
      ? t('offer.amount.belowMin', { amount: fiatText(limits.min) })
      : problem === 'above_max'
        ? t('offer.amount.aboveMax', { amount: fiatText(limits.max) })
        : problem === 'not_predefined'
          ? t('offer.amount.pickOne')
          : problem === 'empty'
            ? t('offer.amount.empty')
            : '';

  return (
    <form className="start-trade card" onSubmit={submit} noValidate data-tour="how-much">
      <h2 className="h3">{props.personBuys ? t('offer.howMuch.buy') : t('offer.howMuch.sell')}</h2>

      {offer.predefined.length > 0 && (
        <fieldset className="start-chips">
          <legend className="field-label">{t('offer.amount.choose')}</legend>
          {offer.predefined.map((amount) => (
            <button
              key={amount}
              type="button"
              className="chip"
              aria-pressed={Number(fiat) === amount}
              onClick={() => onFiat(String(amount))}
            >
              {fiatText(amount)}
            </button>
          ))}
        </fieldset>
      )}

      <div className="start-inputs">
        <div className="field">
          <label htmlFor={`${id}-fiat`}>{t('offer.amount.pay', { currency: offer.fiatCurrency })}</label>
          <div className="input-unit">
            <input
              id={`${id}-fiat`}
              className="input"
              inputMode="decimal"
              autoComplete="off"
              value={fiat}
              onChange={(e) => onFiat(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-invalid={touched && problem !== undefined}
              aria-describedby={`${id}-limits ${id}-problem`}
              readOnly={offer.predefined.length > 0}
            />
            <span aria-hidden="true">{offer.fiatCurrency}</span>
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-crypto`}>{t('offer.amount.receive', { crypto: offer.crypto })}</label>
          <div className="input-unit">
            <input
              id={`${id}-crypto`}
              className="input"
              inputMode="decimal"
              autoComplete="off"
              value={crypto}
              onChange={(e) => onCrypto(e.target.value)}
              readOnly={offer.predefined.length > 0}
            />
            <span aria-hidden="true">{offer.crypto}</span>
          </div>
        </div>
      </div>
      <p id={`${id}-limits`} className="muted start-limits">
        {t('offer.limits', { min: fiatText(limits.min), max: fiatText(limits.max) })}
      </p>
      <p id={`${id}-problem`} className="field-error" role={touched && problemText ? 'alert' : undefined}>
        {touched ? problemText : ''}
      </p>

      {blocked && (
        <div className="start-blocks" role="status">
          <p className="start-blocks-title">{t('offer.blocked.title')}</p>
          <ul>
            {blocks.map((block) => {
              const link = BLOCK_ACTIONS[block.code];
              return (
                <li key={block.code} data-block={block.code}>
                  {block.message}{' '}
                  {link && (
                    <a className="text-link" href={props.links[link]}>
                      {t(`offer.blocked.action.${link}`)}
                    </a>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}

      {status === 'failed' && (
        <div className="start-alert" role="alert">
          {errors.length > 0 ? errors.map((message) => <p key={message}>{message}</p>) : t('offer.start.failed')}
        </div>
      )}

      <button type="submit" className="btn btn-primary btn-lg start-submit" disabled={blocked || status === 'posting'}>
        {status === 'posting' ? t('offer.start.posting') : action}
      </button>

      {modal && (
        <WarningModal
          step={modal}
          t={t}
          values={{ method: offer.paymentMethod, crypto: offer.crypto }}
          onCancel={() => setModal(null)}
          onConfirm={() => void start()}
        />
      )}
    </form>
  );
}

function WarningModal({
  step,
  t,
  values,
  onCancel,
  onConfirm,
}: {
  step: StartTradeStep;
  t: ReturnType<typeof islandTranslator>;
  values: Record<string, string>;
  onCancel(): void;
  onConfirm(): void;
}) {
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className="offer-modal"
      aria-labelledby={titleId}
      data-step={step}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="h3">
        {t(`offer.warning.${step}.title`)}
      </h2>
      <p>{t(`offer.warning.${step}.text`, values)}</p>
      <div className="offer-modal-actions">
        <button type="button" className="btn btn-primary" onClick={onConfirm}>
          {t(`offer.warning.${step}.confirm`)}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {t('offer.warning.cancel')}
        </button>
      </div>
    </dialog>
  );
}
