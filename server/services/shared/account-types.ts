import type { sessions, users } from '../../../db/schema/index.ts';

// The account types every area reads (a signed-in person, their session, the facts the
// current-user answer joins in), kept below both the accounts folder and the areas it reads from
// (phone, two-factor, wallet), so neither imports the other to name them (issue 26).

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** The facts from other tables the current-user answer reads (see `profileOf`). */
export interface UserProfileRow {
  countryIso: string | null;
  countryName: string | null;
  currencyCode: string | null;
  soundNotifications: boolean | null;
  avatarUrl: string | null;
  twoFactorConfirmedAt: number | null;
  twoFactorLogin: boolean | null;
  twoFactorSendout: boolean | null;
  twoFactorRelease: boolean | null;
  phoneNumber: string | null;
  phoneVerifiedAt: number | null;
  /** Satoshi in the BTC wallet (ledger) and seen on the chain but not credited yet (chain_transactions). */
  btcBalance: number;
  btcIncoming: number;
  /** Satoshi of affiliate earnings not yet moved to the wallet (server/services/affiliates). */
  affiliateBtc: number;
}

/** Who is asking: address and browser (no origin: links come from the configured site origin). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** The attempt rows one throttle check reserved; hand them back to `succeeded` or `failed`. */
export interface Reservation {
  readonly ids: readonly number[];
  readonly accountKey: string;
}

/** The part of the sign-in throttle (accounts/throttle.ts) a second-factor code check uses. */
export interface CodeThrottle {
  reserveCode(email: string): Promise<Reservation>;
  succeeded(reservation: Reservation): Promise<void>;
  failed(reservation: Reservation): Promise<number>;
}
