import { escrowFeeBasisPoints } from '../../lib/shared/fees.ts';
import { formatFiat, formatMargin, formatPercent } from '../../lib/shared/format.ts';
import { roundDecimal } from '../../lib/shared/money.ts';
import type { MarketPrice } from './market-price.ts';
import type { EditorCurrency } from './types.ts';
import { useEditor } from './ui.tsx';
import type { OfferPrice } from './use-offer-price.ts';

// What the offer will cost per coin as the vendor types (use-offer-price.ts: the live market price
// moved by the margin, or the fixed price and how far it sits from the market), and the seller's
// escrow fee of src/lib/shared/fees.ts, which a sell offer's vendor pays.

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
  offerPrice: { market, price, premium },
  groupSlug,
}: {
  currency: EditorCurrency | undefined;
  crypto: 'BTC' | 'USDT';
  type: 'buy' | 'sell';
  offerPrice: OfferPrice;
  groupSlug: string | undefined;
}) {
  const { t, lang } = useEditor();
  const code = currency?.code ?? '';
  const decimals = currency?.minorUnits ?? 2;
  const money = (amount: number) => formatFiat(amount, code, lang, decimals);
  const coin = crypto === 'BTC' ? t('offerEditor.crypto.btc') : t('offerEditor.crypto.usdt');
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
