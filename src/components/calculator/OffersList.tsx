import { buildListingUrl } from '../../lib/offer-listing-url.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { RetryNote } from '../RetryNote.tsx';
import type { CalcOffer } from './types.ts';

// The first offers to buy bitcoin with the chosen currency (spec section 9: the converter shows
// the first 10), each a link to its offer page, and a link to the full listing.

interface Props {
  t: ReturnType<typeof islandTranslator>;
  lang: string;
  locale: Locale;
  code: string;
  name: string;
  offers: CalcOffer[];
  state: 'ready' | 'loading' | 'error';
  onRetry: () => void;
}

export function OffersList({ t, lang, locale, code, name, offers, state, onRetry }: Props) {
  const listing = buildListingUrl(locale, { type: 'buy', crypto: 'bitcoin', currency: code });
  return (
    <section
      className="card calc-card calc-offers"
      aria-labelledby="calc-offers-title"
      data-offers={code}
      data-state={state}
      aria-busy={state === 'loading'}
    >
      <div className="calc-card-head">
        <div>
          <h2 id="calc-offers-title" className="calc-card-title">
            {t('calculator.offers.title', { code })}
          </h2>
          <p className="muted calc-card-text">{t('calculator.offers.text', { name })}</p>
        </div>
      </div>
      {state === 'error' ? (
        <RetryNote
          className="calc-empty calc-error"
          role="status"
          message={t('calculator.offers.error')}
          retry={t('calculator.retry')}
          onRetry={onRetry}
        />
      ) : offers.length === 0 ? (
        <p className="calc-empty muted" role="status">
          {state === 'loading' ? t('calculator.offers.loading') : t('calculator.offers.empty', { code })}
        </p>
      ) : (
        <ul className="calc-offer-list">
          <li className="calc-offer calc-offer-head" aria-hidden="true">
            <span>{t('calculator.offers.vendor')}</span>
            <span>{t('calculator.offers.limits')}</span>
            <span>{t('calculator.offers.price')}</span>
            <span />
          </li>
          {offers.map((offer) => (
            <li key={offer.hash} className="calc-offer">
              <a href={localizePath(locale, `/offers/${offer.hash}`)} data-offer={offer.hash}>
                <span className="calc-offer-who">
                  <strong>
                    <bdi>{offer.username}</bdi>
                  </strong>
                  <span className="muted">
                    <bdi>{offer.paymentMethod}</bdi>
                  </span>
                </span>
                <span className="calc-offer-limits">
                  <span className="calc-offer-label">{t('calculator.offers.limits')}</span>
                  <span dir="ltr">
                    {formatFiat(offer.min, code, lang, offer.decimals)} –{' '}
                    {formatFiat(offer.max, code, lang, offer.decimals)}
                  </span>
                </span>
                <span className="calc-offer-price">
                  <span className="calc-offer-label">{t('calculator.offers.price')}</span>
                  <span dir="ltr">{formatFiat(offer.price, code, lang)}</span>
                </span>
                <span className="btn btn-primary calc-offer-buy">{t('calculator.offers.buy')}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <a className="text-link calc-all" href={listing} data-all-offers>
        {t('calculator.offers.all', { code })}
        <span aria-hidden="true" className="flip-rtl">
          →
        </span>
      </a>
    </section>
  );
}
