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
