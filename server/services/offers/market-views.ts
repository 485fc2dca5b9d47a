import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { systemContext } from '../context.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import type { ReferenceService } from '../reference/reference.ts';
import { type MarketRates, type OfferView, toOfferView } from './offer-view.ts';
import type { OfferRow } from './repository.ts';

// Offers as clients read them, priced at one market and one instant for the whole list; the rates
// come from the currency list the reference service keeps per price tick (the same for every
// reader, so asked for as the offers area itself).

const RATES_READER = systemContext('offers');

export function createMarketViews({ reference, now }: { reference: ReferenceService; now: () => number }) {
  let ratesFor: { list: unknown; rates: MarketRates } | undefined;
  const marketRates = async (): Promise<MarketRates> => {
    const list = await reference.listCurrencies(RATES_READER, { locale: 'en' });
    if (ratesFor?.list !== list) {
      const byCode = new Map(list.map((c) => [c.code, c.rate]));
      ratesFor = {
        list,
        rates: {
          fiatPerCrypto: (crypto, fiat) => {
            const rate = byCode.get(fiat);
            return (crypto === 'USDT' ? rate?.usdt : rate?.btc) ?? 0;
          },
          fiatPerUsd: (fiat) => byCode.get(fiat)?.usd ?? 1,
        },
      };
    }
    return ratesFor.rates;
  };

  const viewAll = async (rows: OfferRow[], locale: Locale, { offset = 0, forOwner = false } = {}) => {
    const rates = await marketRates();
    const at = now();
    const countryName = (iso: string, fallback: string) => localizedCountryName(locale, iso, fallback);
    return rows.map((row, i) => toOfferView(row, { rates, now: at, index: offset + i, forOwner, countryName }));
  };
  const view = async (row: OfferRow, locale: Locale, forOwner = false) =>
    (await viewAll([row], locale, { forOwner }))[0] as OfferView;

  return { marketRates, viewAll, view };
}

export type MarketViews = ReturnType<typeof createMarketViews>;
