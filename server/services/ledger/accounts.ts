import {
  LEDGER_ACCOUNT_KINDS,
  type LedgerAccountKind,
  type LedgerCurrency,
  OWNED_ACCOUNT_KINDS,
} from '../../../db/schema/index.ts';

// How the ledger names its accounts: a person's wallet, affiliate earnings, merchant or kiosk
// balance, a trade's escrow, or one of the system accounts (fee income, the conversion desk, chain
// in and out).

/** The kinds a person owns, one per person and currency. */
export type OwnedAccountKind = (typeof OWNED_ACCOUNT_KINDS)[number];
export type SystemAccountKind = Exclude<LedgerAccountKind, OwnedAccountKind | 'trade_escrow'>;
export const isOwnedKind = (kind: LedgerAccountKind): kind is OwnedAccountKind =>
  (OWNED_ACCOUNT_KINDS as readonly string[]).includes(kind);
export const SYSTEM_KINDS = LEDGER_ACCOUNT_KINDS.filter(
  (kind) => kind !== 'trade_escrow' && !isOwnedKind(kind),
) as SystemAccountKind[];

/** A person's account, by owner and currency. */
export type OwnedAccountRef = { kind: OwnedAccountKind; userId: number; currency: LedgerCurrency };

/** Names an account; wallets and system accounts are created by their first posting. */
export type AccountRef =
  | OwnedAccountRef
  | { kind: 'trade_escrow'; reference: string; currency: LedgerCurrency }
  | { kind: SystemAccountKind; currency: LedgerCurrency };

export const walletOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'user_wallet',
  userId,
  currency,
});
/** An affiliate's earnings: their share of referred people's fees until they move it to their wallet. */
export const earningsOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'affiliate_earnings',
  userId,
  currency,
});
/** A merchant's balance: what its trades as buyer brought in, until it settles it into its wallet. */
export const merchantBalanceOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'merchant_balance',
  userId,
  currency,
});
/** A kiosk's balance: the float it sells over the counter, funded from its wallet. */
export const kioskBalanceOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'kiosk_balance',
  userId,
  currency,
});
export const isOwnedRef = (ref: AccountRef): ref is OwnedAccountRef => isOwnedKind(ref.kind);
export const systemAccount = (kind: SystemAccountKind, currency: LedgerCurrency): AccountRef => ({ kind, currency });
export const escrowOf = (tradeRef: string, currency: LedgerCurrency): AccountRef => ({
  kind: 'trade_escrow',
  reference: tradeRef,
  currency,
});

/** One string per account, for duplicates and the fingerprint. */
export const accountKey = (ref: AccountRef): string =>
  isOwnedKind(ref.kind)
    ? `${ref.kind}:${(ref as { userId: number }).userId}:${ref.currency}`
    : ref.kind === 'trade_escrow'
      ? `trade_escrow:${ref.reference}:${ref.currency}`
      : `${ref.kind}:${ref.currency}`;

/** The reference of an account row (a posting's, an account's). */
export const refOfRow = (row: {
  kind: LedgerAccountKind;
  ownerId: number | null;
  reference: string | null;
  currency: LedgerCurrency;
}): AccountRef =>
  isOwnedKind(row.kind)
    ? { kind: row.kind, userId: row.ownerId ?? 0, currency: row.currency }
    : row.kind === 'trade_escrow'
      ? escrowOf(row.reference ?? '', row.currency)
      : systemAccount(row.kind, row.currency);
