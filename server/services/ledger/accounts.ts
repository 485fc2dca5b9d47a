import { LEDGER_ACCOUNT_KINDS, type LedgerAccountKind, type LedgerCurrency } from '../../../db/schema/index.ts';

// How the ledger names its accounts: a user's wallet, a trade's escrow, or one of the system
// accounts (fee income, the conversion desk, chain in and out).

export type SystemAccountKind = Exclude<LedgerAccountKind, 'user_wallet' | 'trade_escrow'>;
export const SYSTEM_KINDS = LEDGER_ACCOUNT_KINDS.filter(
  (kind) => kind !== 'user_wallet' && kind !== 'trade_escrow',
) as SystemAccountKind[];

/** Names an account; wallets and system accounts are created by their first posting. */
export type AccountRef =
  | { kind: 'user_wallet'; userId: number; currency: LedgerCurrency }
  | { kind: 'trade_escrow'; reference: string; currency: LedgerCurrency }
  | { kind: SystemAccountKind; currency: LedgerCurrency };

export const walletOf = (userId: number, currency: LedgerCurrency): AccountRef => ({
  kind: 'user_wallet',
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
  ref.kind === 'user_wallet'
    ? `user_wallet:${ref.userId}:${ref.currency}`
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
  row.kind === 'user_wallet'
    ? walletOf(row.ownerId ?? 0, row.currency)
    : row.kind === 'trade_escrow'
      ? escrowOf(row.reference ?? '', row.currency)
      : systemAccount(row.kind, row.currency);
