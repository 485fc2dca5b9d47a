import { type ReactNode, useEffect, useRef, useState } from 'react';
import { formatFiat } from '../../lib/shared/format.ts';
import type { GiftCardImageView, GiftCardView } from '../../lib/shared/views/gift-cards.ts';

// One saved card as both pages show it: brand, value, kind, receipt, state and its pictures
// (never its code). `actions` holds what the page lets the reader do with it.

type T = (key: string, params?: Record<string, string | number>) => string;

export function CardSummary({
  t,
  lang,
  card,
  decimals,
  tradeHref,
  actions,
}: {
  t: T;
  lang: string;
  card: GiftCardView;
  decimals: number;
  /** The trade holding the card, localized; shown for cards in a trade. */
  tradeHref?: string | undefined;
  actions?: ReactNode;
}) {
  const title = `${card.paymentMethod.name} · ${formatFiat(card.value, card.fiatCurrency.code, lang, decimals)}`;
  return (
    <article className="gc-card" data-testid="gift-card" data-card-id={card.id}>
      <div className="gc-card-main">
        <h3 className="gc-card-title">
          <bdi>{card.paymentMethod.name}</bdi>
          <bdi className="gc-card-value">{formatFiat(card.value, card.fiatCurrency.code, lang, decimals)}</bdi>
        </h3>
        <p className="gc-card-facts">
          <span className={`gc-state gc-state-${card.state}`}>{t(`giftCards.state.${card.state}`)}</span>
          <span>{t(`giftCards.kind.${card.type}`)}</span>
          <span>{t(card.receipt ? 'giftCards.receipt.yes' : 'giftCards.receipt.no')}</span>
          {tradeHref && (
            <a className="text-link" href={tradeHref}>
              {t('giftCards.list.openTrade')}
            </a>
          )}
        </p>
        {card.images.length > 0 && (
          <ul className="gc-thumbs" aria-label={t('giftCards.list.pictures')}>
            {card.images.map((image, index) => (
              <li key={image.id}>
                <Thumb image={image} label={t('giftCards.list.picture', { n: index + 1, card: title })} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {actions && <div className="gc-card-actions">{actions}</div>}
    </article>
  );
}

/** A picture opening full size; a PDF (which an img cannot draw) shows as a document tile. */
function Thumb({ image, label }: { image: GiftCardImageView; label: string }) {
  const ref = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  // The error may fire before hydration, when React's handler is not there yet.
  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0) setBroken(true);
  }, []);
  return (
    <a className="gc-thumb" href={image.url} target="_blank" rel="noopener" aria-label={label}>
      {broken ? (
        <span className="gc-thumb-doc" aria-hidden="true">
          PDF
        </span>
      ) : (
        <img ref={ref} src={image.url} alt="" loading="lazy" width={56} height={56} onError={() => setBroken(true)} />
      )}
    </a>
  );
}
