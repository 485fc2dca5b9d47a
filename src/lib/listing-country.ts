// The country an offer listing is for (issue 19; spec section 7: visitor_country_iso,
// visitor_country_has_changed, is_payment_localized). Unless the visitor picks one, the server
// decides: their settings' country, else where the request comes from. A pick is remembered in a
// first-party cookie so the next page, rendered on the server, shows the same market; "worldwide"
// (the spec's WORLDWIDE marker) lists every country's offers in every currency.

export const WORLDWIDE = 'WORLDWIDE';
export const LISTING_COUNTRY_COOKIE = 'listing_country';
/** A year, like the spec's other cookies (section 9). */
const COOKIE_MAX_AGE = 365 * 86_400;

/** A pick: an ISO 3166-1 alpha-2 code, or WORLDWIDE. */
export type CountryChoice = string;

const CHOICE = /^(?:[A-Z]{2}|WORLDWIDE)$/;

/** The pick a Cookie header carries, or undefined when the visitor made none (or it is not one). */
export function countryChoiceOf(cookieHeader: string | null | undefined): CountryChoice | undefined {
  const value = new RegExp(`(?:^|;\\s*)${LISTING_COUNTRY_COOKIE}=([^;]*)`).exec(cookieHeader ?? '')?.[1];
  const upper = value?.toUpperCase();
  return upper && CHOICE.test(upper) ? upper : undefined;
}

/** The form's value (`country=de`, `country=WORLDWIDE`) as a pick, or undefined when it is not one. */
export function parseCountryChoice(value: string | null | undefined): CountryChoice | undefined {
  const upper = value?.trim().toUpperCase();
  return upper && CHOICE.test(upper) ? upper : undefined;
}

/** The Set-Cookie value that remembers a pick (readable by the island, sent on same-site navigations). */
export function countryChoiceCookie(choice: CountryChoice, secure: boolean): string {
  return `${LISTING_COUNTRY_COOKIE}=${choice}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The search parameters of spec section 7 for a listing with `choice` (none: the server decides). */
export function countryParams(params: URLSearchParams, hasCurrency: boolean, choice: CountryChoice | undefined): void {
  // Without a currency in the address, the listing shows its country's currency.
  if (!hasCurrency) params.set('is_payment_localized', '1');
  if (choice === undefined) return;
  params.set('visitor_country_has_changed', '1');
  if (choice !== WORLDWIDE) params.set('visitor_country_iso', choice);
}
