import { LEDGER_TRANSACTION_KINDS, type LedgerCurrency, type LedgerTransactionKind } from '../../../db/schema/index.ts';
import type { AccountRef } from './accounts.ts';

// What the ledger's verbs take and answer, and the event it publishes after each commit.

export interface Leg {
  account: AccountRef;
  /** Signed minor units (satoshi, micro-tether): positive credits the account. */
  amount: number;
}

/** Kinds a caller may post directly; escrow moves only through lockEscrow/releaseEscrow/returnEscrow. */
export const DIRECT_KINDS = LEDGER_TRANSACTION_KINDS.filter((kind) => !kind.startsWith('escrow_')) as Exclude<
  LedgerTransactionKind,
  'escrow_lock' | 'escrow_release' | 'escrow_return'
>[];
export type DirectKind = (typeof DIRECT_KINDS)[number];

export interface PostInput {
  kind: DirectKind;
  idempotencyKey: string;
  legs: Leg[];
  memo?: string;
  metadata?: Record<string, unknown>;
}

export interface LockEscrowInput {
  tradeRef: string;
  sellerId: number;
  currency: LedgerCurrency;
  amount: number;
  idempotencyKey: string;
  memo?: string;
}

export interface ReleaseEscrowInput {
  tradeRef: string;
  currency: LedgerCurrency;
  buyerId: number;
  /** Where the buyer's part goes: their wallet, or a merchant buyer's merchant balance (issue 21). */
  into?: 'user_wallet' | 'merchant_balance';
  fee: number;
  idempotencyKey: string;
  memo?: string;
}

export interface ReturnEscrowInput {
  tradeRef: string;
  currency: LedgerCurrency;
  idempotencyKey: string;
  memo?: string;
}

export interface LedgerTransaction {
  /** `ltx_…` */
  id: string;
  kind: LedgerTransactionKind;
  memo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: number;
  postings: { account: AccountRef; amount: number }[];
  /** True when this answers a retry: the first result, nothing written. */
  replayed: boolean;
}

export interface UserHistoryEntry {
  id: string;
  kind: LedgerTransactionKind;
  memo: string | null;
  createdAt: number;
  /** What the transaction did to this user's wallets, per currency (signed minor units). */
  changes: { currency: LedgerCurrency; amount: number }[];
}

export const HISTORY_PAGE_SIZE = 50;

export const LEDGER_CHANNEL = 'ledger';
export const LEDGER_POSTED = 'ledger.posted';

export interface LedgerPostedEvent {
  transactionId: string;
  kind: LedgerTransactionKind;
  /** The users whose wallet balances changed (row ids and public ids, same order). */
  userIds: number[];
  userPublicIds: string[];
  /**
   * What the transaction did to each wallet it touched, net (signed minor units): the offers
   * service relists or hides a vendor's sell offers when their wallet crosses a minimum.
   */
  wallets: { userId: number; currency: LedgerCurrency; amount: number }[];
}
