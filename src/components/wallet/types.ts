import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import type { BalancePair } from '../../lib/shared/views/kiosks.ts';
import type { ProofPublicationView } from '../../lib/shared/views/proof.ts';
import type { CurrentUser } from '../../stores/current-user.ts';

// The shapes the wallet island works with: what the wallet, hedging and market APIs answer
// (server/routes/wallet.ts, hedging.ts, market.ts) and what the page hands the island.

export type CryptoCode = 'BTC' | 'USDT';
export type ConversionDirection = 'toUsdt' | 'toBtc';
export type SendNetwork = 'bitcoin' | 'TRC20' | 'ERC20';

/** GET /rest/v1/balances, one per currency; amounts as decimal text. */
export interface WalletBalance {
  cryptoCurrencyCode: CryptoCode;
  balance: string;
  incoming: string;
}

/** GET /rest/v1/wallet/transactions, one entry. */
export interface WalletEntry {
  id: string;
  type: string;
  cryptoCurrencyCode: CryptoCode;
  amount: string;
  status: string;
  createdAt: number;
  txid: string | null;
  network: string | null;
  address?: string | null;
  confirmations?: number | null;
  requiredConfirmations?: number | null;
  fee?: string;
}

/** An entry's key in the ledger: a conversion is two entries with one id, one per currency. */
export const entryKey = (entry: WalletEntry) => `${entry.id}:${entry.cryptoCurrencyCode}`;

export interface WalletPage {
  items: WalletEntry[];
  page: number;
  more: boolean;
}

/** The realtime quote (channel `quotes`) or crypto-fiat-rates' quote fields, normalised. */
export interface Quote {
  id: string;
  /** Unix seconds from which the quote is refused. */
  expiredTimestamp: number;
  /** USDT per BTC the platform sells bitcoin at (USDT → BTC). */
  ask: number;
  /** USDT per BTC the platform buys bitcoin at (BTC → USDT). */
  bid: number;
}

/** GET /rest/v1/hedging/settings. */
export interface HedgingSettings {
  enabled: boolean;
  available: boolean;
  limits: Record<CryptoCode, { min: string; max: string }>;
  retryableCodes: string[];
}

/** GET /rest/v1/wallet/deposit-address. */
export interface DepositAddress {
  cryptoCurrencyCode: CryptoCode;
  network: string;
  address: string;
  qrSvg: string;
  requiredConfirmations: number;
}

/** Per send network: the fee added to a sendout and the smallest amount, as decimal text. */
export interface NetworkInfo {
  currency: CryptoCode;
  fee: string;
  min: string;
}

/** What the page knows of the signed-in person: the shared current user (src/stores/current-user.ts). */
export type WalletUser = CurrentUser;

export interface WalletProps {
  locale: string;
  lang: string;
  messages: IslandMessages;
  user: WalletUser;
  balances: WalletBalance[];
  history: WalletPage;
  settings: HedgingSettings;
  quote: Quote | undefined;
  networks: Record<SendNetwork, NetworkInfo>;
  /** A merchant's merchant balance (GET /rest/v1/merchants/balance); null for anyone else. */
  merchant: BalancePair | null;
  /** A kiosk's kiosk balance (GET /rest/v1/kiosk); null for anyone else. */
  kiosk: BalancePair | null;
  /** The kiosk screen, in the page's language. */
  kioskLink: string;
  /** The verification page, in the page's language (where converting bitcoin's reason leads). */
  verificationLink: string;
  /** The latest proof of liabilities (GET /rest/v1/proof), null before the first publication, undefined when unknown. */
  proof: ProofPublicationView | null | undefined;
  /** The public proof-of-reserves page, in the page's language. */
  proofPageLink: string;
}
