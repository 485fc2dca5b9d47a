import type { LiabilityProof, ProofCurrency } from '../liabilities-proof.ts';

// What the proof-of-liabilities endpoints answer (issue 24; docs/decisions/146-proof-of-liabilities.md):
// GET /rest/v1/proof (the public history of roots) and GET /rest/v1/proof/me (a person's proofs).

/** One currency's published root. */
export interface ProofRootView {
  currency: ProofCurrency;
  /** SHA-256 of the root node, hex. */
  rootHash: string;
  /** What the platform owes everyone in this currency, as decimal text. */
  total: string;
  /** The same in minor units (satoshi, micro-tether), as the tree sums it. */
  totalMinorUnits: number;
  /** People in the tree; the tree is padded to `treeSize` (a power of two). */
  leafCount: number;
  treeSize: number;
}

export interface ProofPublicationView {
  /** `pol_…` */
  id: string;
  /** Unix ms of the ledger snapshot. */
  publishedAt: number;
  roots: ProofRootView[];
}

/** A person's inclusion proofs in the latest publication: one per currency they hold an account in. */
export interface MyProofView {
  publication: ProofPublicationView;
  proofs: LiabilityProof[];
}

/** One address of the platform's and what it holds (decision 149). */
export interface ReserveAddressView {
  address: string;
  /** Decimal text. */
  balance: string;
  balanceMinorUnits: number;
}

/** One currency's reserves on its deposit network, against the latest published liabilities. */
export interface CurrencyReservesView {
  currency: ProofCurrency;
  network: 'bitcoin' | 'TRC20';
  /** False when the configured chain cannot read this network: no figures then. */
  available: boolean;
  /** The sum of `addresses`, decimal text. */
  total: string;
  totalMinorUnits: number;
  /** The latest published root's total (decimal text), or null before the first publication. */
  liabilities: string | null;
  /** Reserves ÷ liabilities; null without a publication or when nothing is owed. */
  ratio: number | null;
  /** Every address holding coins, largest first. */
  addresses: ReserveAddressView[];
}

/** GET /rest/v1/proof/reserves */
export interface ReservesView {
  /** Unix ms when the chain was read. */
  readAt: number;
  /** `simulated` (the embedded test chain) or `bitcoind`. */
  chain: string;
  /** The publication the liabilities come from. */
  publication: { id: string; publishedAt: number } | null;
  currencies: CurrencyReservesView[];
}
