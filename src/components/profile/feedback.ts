// The profile's feedback list without React: its tabs and filters, the shapes the feedbacks
// endpoint answers (spec section 7, users/{username}/feedbacks), the page's address for a list
// state, and reading one page.

export type OfferTypeTab = 'all' | 'sell' | 'buy';
export type RatingFilter = 'all' | 'positive' | 'negative';
export const TABS: readonly OfferTypeTab[] = ['all', 'sell', 'buy'];
export const FILTERS: readonly RatingFilter[] = ['all', 'positive', 'negative'];

export interface FeedbackItem {
  id: string;
  type: 'buy' | 'sell';
  rating: 'positive' | 'negative';
  message: string;
  reply: string | null;
  from: { username: string; avatarUrl: string | null };
  paymentMethod: string;
  currency: string;
  createdAt: number;
}

export interface FeedbackPage {
  total: number;
  positive: number;
  negative: number;
  data: FeedbackItem[];
  nextPageUrl: string | null;
}

/** The profile page's address for a list state (`f_page`: pages shown, without JavaScript). */
export function feedbackHref(base: string, tab: OfferTypeTab, filter: RatingFilter, pages = 1): string {
  const query = new URLSearchParams({ offer_type: tab, feedback: filter });
  if (pages > 1) query.set('f_page', String(pages));
  return `${base}?${query}#feedback`;
}

/** The list is the answer's body itself (spec section 7), not its `data`: read it whole. */
export async function fetchPage(url: string): Promise<FeedbackPage | undefined> {
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    return response.ok ? ((await response.json()) as FeedbackPage) : undefined;
  } catch {
    return undefined;
  }
}
