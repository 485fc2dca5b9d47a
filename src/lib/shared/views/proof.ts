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
