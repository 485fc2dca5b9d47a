import { escrowFeeBasisPoints } from '../../lib/shared/fees.ts';
import { formatFiat, formatMargin, formatPercent } from '../../lib/shared/format.ts';
import { roundDecimal, toMinorUnits } from '../../lib/shared/money.ts';
import { MARGIN_MAX_PERCENT, MARGIN_MIN_PERCENT } from '../../lib/shared/offer-rules.ts';
import { marginPrice } from './format.ts';
import { type MarketPrice, useMarketPrice } from './market-price.ts';
import type { EditorCurrency } from './types.ts';
import { useEditor } from './ui.tsx';

// What the offer will cost per coin as the vendor types: the live market price of the coin in
// the offer's currency, moved by the margin (or the fixed price and how far it sits from the
// market), and the seller's escrow fee of src/lib/shared/fees.ts, which a sell offer's vendor pays.

const MARGIN = /^-?\d{1,3}(?:\.\d{1,2})?$/;

/** The offer's price per coin and how far it sits from the market, once both are known. */
function offerPrice(
  market: MarketPrice,
  { priceType, margin, fixedPrice }: { priceType: 'margin' | 'fixed'; margin: string; fixedPrice: string },
  decimals: number,
): { price?: number; premium?: number } {
  if (market.state !== 'ready') return {};
  if (priceType === 'margin') {
    const text = margin.trim();
    const percent = Number(text);
    if (MARGIN.test(text) && percent >= MARGIN_MIN_PERCENT && percent <= MARGIN_MAX_PERCENT)
      return { price: marginPrice(market.price, percent, decimals), premium: percent };
    return {};
  }
  const minor = toMinorUnits(fixedPrice, decimals);
  if (minor === undefined || !(minor > 0)) return {};
  const price = minor / 10 ** decimals;
  return { price, premium: roundDecimal((price / market.price - 1) * 100, 2) };
}

function PreviewList({
  market,
  price,
  premium,
  feePercent,
  type,
  coin,
  decimals,
  money,
}: {
  market: MarketPrice;
  price: number | undefined;
  premium: number | undefined;
  feePercent: number;
  type: 'buy' | 'sell';
  coin: string;
  decimals: number;
  money: (amount: number) => string;
}) {
  const { t, lang } = useEditor();
  return (
    <dl className="preview-list">
      <div>
        <dt>{t('offerEditor.preview.market', { coin })}</dt>
        <dd data-testid="market-price">
          {market.state === 'ready'
            ? money(market.price)
            : market.state === 'loading'
              ? t('offerEditor.preview.loading')
              : t('offerEditor.preview.unavailable')}
        </dd>
      </div>
      <div className="preview-main">
        <dt>{t('offerEditor.preview.yours', { coin })}</dt>
        <dd className="preview-price" data-testid="offer-price">
          {price === undefined ? '—' : money(price)}
        </dd>
      </div>
      {premium !== undefined && (
        <div>
          <dt>{t('offerEditor.preview.vsMarket')}</dt>
          <dd>{formatMargin(premium, lang)}</dd>
        </div>
      )}
      <div>
        <dt>{t('offerEditor.preview.fee')}</dt>
        <dd>{formatPercent(feePercent, lang)}</dd>
      </div>
      {type === 'sell' && price !== undefined && (
        <div>
          <dt>{t('offerEditor.preview.youKeep', { coin })}</dt>
          {/* The fee is crypto on top of what is sold: fiat per coin given up is price / (1 + fee). */}
          <dd data-testid="after-fee">{money(roundDecimal(price / (1 + feePercent / 100), decimals))}</dd>
        </div>
      )}
    </dl>
  );
}

export function PricePreview({
  currency,
  crypto,
  type,
  priceType,
  margin,
  fixedPrice,
  groupSlug,
}: {
  currency: EditorCurrency | undefined;
  crypto: 'BTC' | 'USDT';
  type: 'buy' | 'sell';
  priceType: 'margin' | 'fixed';
  margin: string;
  fixedPrice: string;
  groupSlug: string | undefined;
}) {
  const { t, lang } = useEditor();
  const code = currency?.code ?? '';
  const decimals = currency?.minorUnits ?? 2;
  const market = useMarketPrice(code, crypto, currency?.rate[crypto === 'USDT' ? 'usdt' : 'btc']);
  const money = (amount: number) => formatFiat(amount, code, lang, decimals);
  const coin = crypto === 'BTC' ? t('offerEditor.crypto.btc') : t('offerEditor.crypto.usdt');
  const { price, premium } = offerPrice(market, { priceType, margin, fixedPrice }, decimals);
  const feePercent = escrowFeeBasisPoints(groupSlug ?? 'default') / 100;

  return (
    <aside className="card price-preview" aria-labelledby="offer-preview-title" data-testid="price-preview">
      <h2 className="h3" id="offer-preview-title">
        {t('offerEditor.preview.title')}
      </h2>
      {!currency ? (
        <p className="muted">{t('offerEditor.preview.chooseCurrency')}</p>
      ) : (
        <PreviewList
          market={market}
          price={price}
          premium={premium}
          feePercent={feePercent}
          type={type}
          coin={coin}
          decimals={decimals}
          money={money}
        />
      )}
      <p className="field-hint">
        {type === 'sell'
          ? t('offerEditor.preview.feeSell', { percent: feePercent })
          : t('offerEditor.preview.feeBuy', { percent: feePercent })}
      </p>
      <p className="field-hint">{t('offerEditor.preview.live')}</p>
    </aside>
  );
}
