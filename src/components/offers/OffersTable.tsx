import { Fragment } from 'react';
import { formatAgo, formatFiat, formatPercent } from '../../lib/shared/format.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { presenceLevel } from '../../lib/shared/presence.ts';
import { PaymentGroupIcon } from './ListingIcon.tsx';
import type { ListedOffer, ListingMeta } from './listing-types.ts';
import { VendorAvatar } from './VendorAvatar.tsx';

// The offers of a listing in two lists, featured then the others, each sorted by price on the
// server. In each list a message row (spec: `offers.last_seen_trades`) comes before the first
// offer whose owner was seen longer ago than the breakpoint.

interface Props {
  t: ReturnType<typeof islandTranslator>;
  lang: string;
  locale: Locale;
  offers: ListedOffer[];
  meta: ListingMeta;
  personBuys: boolean;
  now: number;
  /** The amount searched for and its currency: the offer links carry them to the start widget. */
  search?: { amount: string; currency: string } | undefined;
}

/** An offer's page, with the amount searched for when there is one (the widget prefills it). */
export function offerHref(locale: Locale, hash: string, search: Props['search']): string {
  const path = localizePath(locale, `/offers/${hash}`);
  if (!search) return path;
  return `${path}?${new URLSearchParams({ amount: search.amount, currency: search.currency })}`;
}

export function OffersTable({ t, lang, locale, offers, meta, personBuys, now, search }: Props) {
  if (offers.length === 0) {
    return (
      <div className="listing-empty card">
        <p className="h3">{t('listing.empty.title')}</p>
        <p className="muted">{t('listing.empty.text')}</p>
      </div>
    );
  }
  const featured = offers.filter((o) => o.isFeatured);
  const others = offers.filter((o) => !o.isFeatured);
  const lists = [
    { id: 'featured', title: t('listing.featured'), items: featured },
    { id: 'other', title: featured.length > 0 ? t('listing.others') : undefined, items: others },
  ].filter((list) => list.items.length > 0);

  return (
    <div className="listing-lists">
      {lists.map((list) => {
        const firstStale = list.items.findIndex((o) => o.score > meta.lastSeenBreakpoint);
        return (
          <section key={list.id} className="listing-list" aria-label={list.title ?? t('listing.offers')}>
            {list.title && <h2 className="listing-list-title">{list.title}</h2>}
            <div className="offers-row offers-head" aria-hidden="true">
              <span>{t('listing.column.vendor')}</span>
              <span>{t('listing.column.method')}</span>
              <span>{t('listing.column.limits')}</span>
              <span>{t('listing.column.price')}</span>
              <span />
            </div>
            <ul className="offers-table">
              {list.items.map((offer, i) => (
                <Fragment key={offer.hash}>
                  {i === firstStale && (
                    <li className="offers-row offers-note">
                      {t('offers.last_seen_trades', { hours: Math.round(meta.lastSeenBreakpoint / 3600) })}
                    </li>
                  )}
                  <OfferRow
                    t={t}
                    lang={lang}
                    locale={locale}
                    offer={offer}
                    personBuys={personBuys}
                    now={now}
                    search={search}
                  />
                </Fragment>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function OfferRow({
  t,
  lang,
  locale,
  offer,
  personBuys,
  now,
  search,
}: Omit<Props, 'offers' | 'meta'> & { offer: ListedOffer }) {
  const money = (amount: number) => formatFiat(amount, offer.fiatCurrency, lang, offer.fiatDecimals);
  const seenAt = now - offer.score;
  const level = presenceLevel(offer.score);
  const href = offerHref(locale, offer.hash, search);
  return (
    <li className="offers-row" data-offer={offer.hash} data-currency={offer.fiatCurrency}>
      <span className="offer-vendor">
        <VendorAvatar name={offer.owner.username} url={offer.owner.avatarUrl} />
        <span className="offer-vendor-text">
          {/* One line: a long name ends in an ellipsis (its title tells it whole), never breaks mid-word;
              <bdi> keeps a Latin name's punctuation on its side in Hebrew (issue 22). */}
          <bdi className="offer-vendor-name" title={offer.owner.username}>
            {offer.owner.username}
          </bdi>
          <span className="offer-vendor-meta" data-presence={level}>
            {/* The dot and its words wrap as one. */}
            <span className="offer-presence">
              <span className="presence-dot" aria-hidden="true" />
              {level === 'online' ? t('listing.online') : t('listing.seen', { ago: formatAgo(seenAt, now, lang) })}
            </span>
          </span>
          <span className="offer-vendor-meta">
            <span className="offer-feedback">
              <span className="feedback-positive">+{offer.owner.feedbackPositive}</span>{' '}
              <span className="feedback-negative">−{offer.owner.feedbackNegative}</span>
            </span>
            <span className="offer-trades">· {t('listing.trades', { count: offer.owner.completedTrades })}</span>
          </span>
        </span>
      </span>
      <span className="offer-method" data-group={offer.paymentGroup}>
        <PaymentGroupIcon group={offer.paymentGroup} />
        <span className="offer-method-text">
          <bdi className="offer-method-name">{offer.paymentMethod}</bdi>
          {offer.paymentMethodLabel && <bdi className="muted">{offer.paymentMethodLabel}</bdi>}
          {offer.location && <bdi className="muted">{offer.location.prettyName}</bdi>}
        </span>
      </span>
      <span className="offer-limits">
        <span className="offer-cell-label">{t('listing.column.limits')}</span>
        <span className="offer-limit-range">
          <bdi>{money(offer.fiatLimitMin)}</bdi> – <bdi>{money(offer.fiatLimitMax)}</bdi>
        </span>
      </span>
      <span className="offer-price-cell">
        <span className="visually-hidden">{t('listing.column.price')}</span>
        <strong>
          <bdi>{money(offer.fiatPricePerCrypto)}</bdi>
        </strong>
        <span className="muted">
          {offer.margin === 0
            ? t('listing.margin.market')
            : t(offer.margin > 0 ? 'listing.margin.above' : 'listing.margin.below', {
                percent: formatPercent(Math.abs(offer.margin), lang),
              })}
        </span>
      </span>
      <span className="offer-action">
        <a className="btn btn-primary" href={href}>
          {personBuys ? t('listing.action.buy') : t('listing.action.sell')}
        </a>
      </span>
    </li>
  );
}
