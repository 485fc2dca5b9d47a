import { LEDGER_ACCOUNT_KINDS, type LedgerAccountKind, type LedgerCurrency } from '../../../db/schema/index.ts';

// How the ledger names its accounts: a user's wallet or affiliate earnings, a trade's escrow, or
// one of the system accounts (fee income, the conversion desk, chain in and out).

/** The kinds a person owns, one per person and currency. */
export type OwnedAccountKind = 'user_wallet' | 'affiliate_earnings';
export type SystemAccountKind = Exclude<LedgerAccountKind, OwnedAccountKind | 'trade_escrow'>;
export const SYSTEM_KINDS = LEDGER_ACCOUNT_KINDS.filter(
  (kind) => kind !== 'user_wallet' && kind !== 'trade_escrow' && kind !== 'affiliate_earnings',
) as SystemAccountKind[];
export const isOwnedKind = (kind: LedgerAccountKind): kind is OwnedAccountKind =>
  kind === 'user_wallet' || kind === 'affiliate_earnings';

/** Names an account; wallets and system accounts are created by their first posting. */
export type AccountRef =
  | { kind: OwnedAccountKind; userId: number; currency: LedgerCurrency }
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
