import { ACTIVE_DAYS } from '../../../src/lib/shared/affiliates.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { EarningsView, ReferralRow } from '../../../src/lib/shared/views/affiliates.ts';
import type { ReferralDbRow } from './repository.ts';

// The affiliate answers' shapes from their rows (src/lib/shared/views/affiliates.ts).

export const DAY_MS = 86_400_000;

export const btc = (satoshi: number) => fromMinorUnits(satoshi, CRYPTO_DECIMALS.BTC);
export const usdt = (micro: number) => fromMinorUnits(micro, CRYPTO_DECIMALS.USDT);
export const usd = (cents: number) => fromMinorUnits(cents, 2);

export const earningsView = (amounts: { BTC: number; USDT: number; usdCents: number }): EarningsView => ({
  BTC: btc(amounts.BTC),
  USDT: usdt(amounts.USDT),
  usd: usd(amounts.usdCents),
});

export const referralView = (row: ReferralDbRow, now: number): ReferralRow => ({
  id: row.publicId,
  username: row.username,
  registeredAt: row.registeredAt,
  completedTrades: row.completedTrades,
  tradedVolumeUsd: usd(row.tradedUsdCents),
  earnings: earningsView({ BTC: row.earnedBtc, USDT: row.earnedUsdt, usdCents: row.earnedUsdCents }),
  isActive: row.lastSeenAt >= now - ACTIVE_DAYS * DAY_MS,
  referralsCount: row.referralsCount,
});
