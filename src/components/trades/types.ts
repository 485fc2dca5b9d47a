// What the trades page hands its island: the active trades (GET /rest/v1/trade/active, trimmed)
// and one list of past trades (GET /rest/v1/users/{username}/past-trades).

export type PastType = 'bought' | 'sold';
export type PastStatus = 'all' | 'successful' | 'cancelled' | 'disputed';
export const PAST_TYPES: readonly PastType[] = ['bought', 'sold'];
export const PAST_STATUSES: readonly PastStatus[] = ['all', 'successful', 'cancelled', 'disputed'];

/** Statuses with a label of their own (trades.status.*); others show as they are. */
export const STATUS_LABELS = [
  'active_funded',
  'paid',
  'dispute_open',
  'released',
  'cancelled_buyer',
  'cancelled_seller',
  'cancelled_system',
  'dispute_won_buyer',
  'dispute_won_seller',
] as const;

export interface ActiveTrade {
  hash: string;
  role: 'buyer' | 'seller' | 'moderator' | 'system';
  partner: string;
  status: string;
  fiatAmount: number;
  currency: string;
  cryptoAmount: string;
  cryptoCurrency: 'BTC' | 'USDT';
  paymentMethod: string;
  /** Unix seconds. */
  startedAt: number;
}

export interface PastTrade {
  id: string;
  type: PastType;
  status: string;
  partner: { username: string };
  fiatAmountRequested: number;
  currency: string;
  cryptoCurrency: 'BTC' | 'USDT';
  cryptoAmount: string;
  paymentMethod: string;
  startedAt: number;
  endedAt: number | null;
}

export interface PastPage {
  items: PastTrade[];
  /** The last page loaded and the server's last page (spec: meta.currentPage, meta.lastPage). */
  page: number;
  lastPage: number;
}

/** The trade view fields the active table shows, from a full TradeView. */
export function toActiveTrade(
  view: Omit<ActiveTrade, 'partner'> & { buyer: { username: string }; seller: { username: string } },
): ActiveTrade {
  return {
    hash: view.hash,
    role: view.role,
    partner: view.role === 'buyer' ? view.seller.username : view.buyer.username,
    status: view.status,
    fiatAmount: view.fiatAmount,
    currency: view.currency,
    cryptoAmount: view.cryptoAmount,
    cryptoCurrency: view.cryptoCurrency,
    paymentMethod: view.paymentMethod,
    startedAt: view.startedAt,
  };
}

/** The page's own address for a list state: what links carry without JavaScript. */
export function pastHref(base: string, type: PastType, status: PastStatus, page = 1): string {
  const query = new URLSearchParams({ type, status });
  if (page > 1) query.set('page', String(page));
  return `${base}?${query}#past-trades`;
}
