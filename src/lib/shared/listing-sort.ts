// The orders a listing can be read in (issue 22, decision 133): `GET /rest/v1/offers?sort=`, the
// listing URL's `?sort=` and the sort select share these names. `price` is the contract's own
// order (spec section 3: "Price per btc is sorted per list type"), and what no `sort` means.
// Every order keeps the two lists (featured, then the others) and, in each, the owners seen in the
// last two hours before the rest; the order chosen applies inside those groups, the price next.

export const LISTING_SORTS = ['price', 'limit-min', 'limit-max', 'reputation', 'last-seen'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export const DEFAULT_LISTING_SORT: ListingSort = 'price';

export const isListingSort = (value: string | null | undefined): value is ListingSort =>
  (LISTING_SORTS as readonly (string | null | undefined)[]).includes(value);
