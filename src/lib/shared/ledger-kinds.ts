// What a ledger transaction can be: the schema's CHECK (db/schema/ledger.ts) and the wallet's
// history labels (src/components/wallet/LedgerTable.tsx) read the one list.
export const LEDGER_TRANSACTION_KINDS = [
  'deposit',
  'sendout',
  'sendout_return',
  'transfer',
  'conversion',
  'escrow_lock',
  'escrow_release',
  'escrow_return',
  'fee',
  'affiliate_share',
  'affiliate_payout',
  'merchant_settlement',
  'kiosk_transfer',
  'kiosk_sale',
  'correction',
] as const;
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];
