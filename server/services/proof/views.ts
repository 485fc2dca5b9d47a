import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { ProofPublicationView } from '../../../src/lib/shared/views/proof.ts';
import type { PublicationRow, RootRow } from './repository.ts';

// The answers' shapes (src/lib/shared/views/proof.ts) from the rows: totals as decimal text and in
// minor units, the row ids left out.

export function publicationView(publication: PublicationRow, roots: RootRow[]): ProofPublicationView {
  return {
    id: publication.publicId,
    publishedAt: Number(publication.publishedAt),
    roots: roots
      .filter((root) => Number(root.publicationId) === Number(publication.id))
      .map((root) => ({
        currency: root.currency,
        rootHash: root.rootHash,
        total: fromMinorUnits(Number(root.total), CRYPTO_DECIMALS[root.currency]),
        totalMinorUnits: Number(root.total),
        leafCount: Number(root.leafCount),
        treeSize: Number(root.treeSize),
      })),
  };
}
