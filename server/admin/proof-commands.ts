import type { DatabaseLike } from '../../db/database.ts';
import { systemContext } from '../services/context.ts';
import { createProofService } from '../services/proof/proof.ts';

// `npm run admin -- proof:publish`: a publication of the proof of liabilities now, besides the
// schedule's (docs/decisions/146-proof-of-liabilities.md). Reads the ledger, never writes it.

export function proofCommands(db: DatabaseLike, now: () => number = Date.now) {
  return {
    async publish(): Promise<string> {
      const service = createProofService({ db, now, log: (message, error) => console.error(message, error ?? '') });
      const publication = await service.publish(systemContext('proof:publish', 'operator'), { source: 'operator' });
      const roots = publication.roots.map(
        (root) => `  ${root.currency}: ${root.total} owed to ${root.leafCount} people, root ${root.rootHash}`,
      );
      return [
        `Proof of liabilities ${publication.id} published at ${new Date(publication.publishedAt).toISOString()}:`,
        ...roots,
      ].join('\n');
    },
  };
}
