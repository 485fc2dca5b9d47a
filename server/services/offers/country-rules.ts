import type { OfferView } from './offer-view.ts';
import type { StartBlock, Viewer } from './start-gate.ts';

// Country rules of the start gate (spec section 5). Lists as of 2026-11; an operator updates them
// here when the lists change (docs/decisions/047-presence-and-listing-filters.md).

/**
 * "Gray" countries: the FATF list of jurisdictions under increased monitoring (October 2025
 * plenary). People there must verify their identity before they sell to a buy offer.
 */
export const GRAY_COUNTRIES: ReadonlySet<string> = new Set([
  'DZ',
  'AO',
  'BO',
  'BG',
  'CM',
  'CI',
  'CD',
  'HT',
  'KE',
  'LA',
  'LB',
  'MC',
  'NA',
  'NP',
  'SS',
  'SY',
  'VE',
  'VN',
  'YE',
  'VG',
]);

/** Comprehensively sanctioned countries: no offer is available to people there. */
export const SANCTIONED_COUNTRIES: ReadonlySet<string> = new Set(['CU', 'IR', 'KP']);

/**
 * The start gate's country rules (spec section 5; issue 19). A person's country is the one in their
 * settings; where the request comes from counts too for what must never happen from there
 * (sanctioned countries, countries the vendor refuses), so a changed setting does not open them.
 * An offer's allowed list, the gray list and the currency rule read the person's own country: a
 * traveller keeps trading as at home.
 */
export function countryBlocks(
  offer: Pick<
    OfferView,
    'type' | 'fiatCurrency' | 'blockedCountries' | 'allowedCountries' | 'requireOfferCurrencyMatchBuyerCountry'
  >,
  viewer: Pick<Viewer, 'countryIso' | 'requestCountryIso' | 'isIdVerified'>,
  countryCurrency: (iso: string) => string | undefined,
): StartBlock[] {
  const blocks: StartBlock[] = [];
  const own = viewer.countryIso;
  const barred = (iso: string | null): iso is string =>
    iso !== null && (SANCTIONED_COUNTRIES.has(iso) || offer.blockedCountries.includes(iso));
  const outsideAllowed = own !== null && offer.allowedCountries.length > 0 && !offer.allowedCountries.includes(own);
  const refused = [own, viewer.requestCountryIso].find(barred) ?? (outsideAllowed ? own : undefined);
  if (refused) blocks.push({ code: 'country_not_allowed', params: { country: refused } });
  // Selling crypto to a buy offer from a gray-listed country needs a verified identity.
  if (own && GRAY_COUNTRIES.has(own) && !viewer.isIdVerified && offer.type === 'buy') {
    blocks.push({ code: 'gray_country_id_required' });
  }
  if (offer.requireOfferCurrencyMatchBuyerCountry && (!own || countryCurrency(own) !== offer.fiatCurrency)) {
    blocks.push({ code: 'currency_country_mismatch', params: { currency: offer.fiatCurrency } });
  }
  return blocks;
}
