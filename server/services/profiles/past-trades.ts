import { CRYPTO_DECIMALS, fromMinorUnits, minorToMajor } from '../../../src/lib/shared/money.ts';
import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { PastTradeRow, PastTradesStatus, PastTradesType } from './repository.ts';
import { type ProfilesDeps, seconds } from './types.ts';

// A person's past trades (spec section 7, users/{username}/past-trades).

/** Spec section 9: page size 50. */
export const PAST_TRADES_PAGE_SIZE = 50;

export interface PastTradeView {
  id: string;
  link: string;
  type: 'bought' | 'sold';
  status: string;
  partner: { username: string; profile: string; avatarUrl: string | null };
  fiatAmountRequested: number;
  currency: string;
  cryptoCurrency: 'BTC' | 'USDT';
  cryptoAmount: string;
  btcAmount: { satoshi: number; btc: string } | null;
  paymentMethod: string;
  wasDisputed: boolean;
  /** Unix seconds. */
  startedAt: number;
  endedAt: number | null;
}

/** One trade from the side of `userId`. */
function pastTradeView(row: PastTradeRow, userId: number): PastTradeView {
  const bought = row.buyerId === userId;
  const partner = bought ? row.sellerUsername : row.buyerUsername;
  const decimals = CRYPTO_DECIMALS[row.cryptoCode];
  return {
    id: row.hash,
    link: `/trade/${row.hash}`,
    type: bought ? 'bought' : 'sold',
    status: row.status,
    partner: {
      username: partner,
      profile: `/profile/${partner}`,
      avatarUrl: bought ? row.sellerAvatarUrl : row.buyerAvatarUrl,
    },
    fiatAmountRequested: minorToMajor(row.fiatAmountMinor, row.fiatMinorUnits),
    currency: row.fiatCode,
    cryptoCurrency: row.cryptoCode,
    cryptoAmount: fromMinorUnits(row.cryptoAmount, decimals),
    btcAmount:
      row.cryptoCode === 'BTC' ? { satoshi: row.cryptoAmount, btc: fromMinorUnits(row.cryptoAmount, decimals) } : null,
    paymentMethod: row.paymentMethodName,
    wasDisputed: row.disputedAt !== null,
    startedAt: seconds(row.startedAt),
    endedAt: row.endedAt === null ? null : seconds(row.endedAt),
  };
}

/** Ended trades of a person, newest first, for that person and moderators only. */
export async function pastTrades(
  { repo }: ProfilesDeps,
  ctx: PersonContext,
  { username, page, status, type }: { username: string; page: number; status: PastTradesStatus; type: PastTradesType },
) {
  const { auth } = ctx;
  const user = await repo.userByName(username);
  if (!user) throw notFound('User', 'username');
  if (user.id !== auth.user.id && !(await repo.isModerator(auth.user.id))) {
    throw new AppError('FORBIDDEN', 'Only the person themselves sees their past trades.', {
      key: 'past_trades_own_only',
    });
  }
  const total = await repo.countPastTrades(user.id, type, status);
  const lastPage = Math.max(1, Math.ceil(total / PAST_TRADES_PAGE_SIZE));
  const rows = await repo.pastTrades(user.id, type, status, PAST_TRADES_PAGE_SIZE, (page - 1) * PAST_TRADES_PAGE_SIZE);
  const data = rows.map((row) => pastTradeView(row, user.id));
  return { data, meta: { currentPage: page, lastPage, total } };
}
