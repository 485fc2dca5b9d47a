import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { fromHex, type LiabilityProof, PROOF_VERSION } from '../../../src/lib/shared/liabilities-proof.ts';
import type { MyProofView, ProofPublicationView } from '../../../src/lib/shared/views/proof.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { ProofRepository, PublicationRow, RootRow } from './repository.ts';
import { buildSumTree, pathOf, type SumTree } from './tree.ts';
import { publicationView } from './views.ts';

// Reading the proof of liabilities: the public history of roots, and a person's inclusion proofs
// in the latest publication. A proof's path is not stored: the tree is built again from the
// private leaves (the same order, nonces and balances give the same hashes) and kept in memory
// for the latest publication, so the first request after a publication pays for it and the others
// do not. A rebuilt root that differs from the published one is an error, never a proof.

export interface ReadDeps {
  repo: ProofRepository;
}

const notPublished = () =>
  new AppError('NOT_FOUND', 'No proof of liabilities has been published yet. Please try again later.', {
    key: 'proof_not_published',
  });

/** The trees of one publication, built on first use; a newer publication replaces them. */
export function createTreeCache(repo: ProofRepository) {
  let publicationId: number | undefined;
  let trees = new Map<LedgerCurrency, Promise<SumTree>>();
  const build = async (root: RootRow): Promise<SumTree> => {
    const leaves = await repo.leavesOf(root.publicationId, root.currency);
    const tree = buildSumTree(
      root.currency,
      leaves.map((leaf) => ({
        userId: leaf.publicId,
        balance: Number(leaf.balance),
        nonce: fromHex(leaf.nonce) ?? new Uint8Array(),
      })),
    );
    if (tree.root.hash !== root.rootHash || tree.root.total !== Number(root.total))
      throw new Error(
        `Proof of liabilities: the ${root.currency} tree of publication ${root.publicationId} no longer gives its root.`,
      );
    return tree;
  };
  return (root: RootRow): Promise<SumTree> => {
    if (publicationId !== Number(root.publicationId)) {
      publicationId = Number(root.publicationId);
      trees = new Map();
    }
    let tree = trees.get(root.currency);
    if (!tree) {
      tree = build(root);
      // A failed build is tried again on the next request, not remembered.
      tree.catch(() => trees.delete(root.currency));
      trees.set(root.currency, tree);
    }
    return tree;
  };
}

export async function listPublications(
  { repo }: ReadDeps,
  _ctx: ServiceContext,
  { limit, before }: { limit: number; before?: string },
): Promise<ProofPublicationView[]> {
  const from = before ? await repo.byPublicId(before) : undefined;
  if (before && !from) throw new AppError('NOT_FOUND', `No publication ${before}.`);
  const publications = await repo.list(limit, from?.id);
  const roots = await repo.rootsOf(publications.map((p) => Number(p.id)));
  return publications.map((publication) => publicationView(publication, roots));
}

/** A person's leaf with its path up to the published root. */
function proofOf(
  publication: PublicationRow,
  root: RootRow,
  tree: SumTree,
  leaf: { index: number; userId: string; balance: number; nonce: string },
): LiabilityProof {
  return {
    version: PROOF_VERSION,
    currency: root.currency,
    publicationId: publication.publicId,
    publishedAt: new Date(Number(publication.publishedAt)).toISOString(),
    root: { hash: root.rootHash, total: Number(root.total) },
    leafCount: Number(root.leafCount),
    treeSize: Number(root.treeSize),
    leaf,
    path: pathOf(tree, leaf.index),
  };
}

export async function myProofs(
  { repo, trees }: ReadDeps & { trees: ReturnType<typeof createTreeCache> },
  ctx: PersonContext,
): Promise<MyProofView> {
  const publication = await repo.latest();
  if (!publication) throw notPublished();
  const roots = await repo.rootsOf([Number(publication.id)]);
  const proofs: LiabilityProof[] = [];
  for (const mine of await repo.leavesOfUser(Number(publication.id), ctx.auth.user.id)) {
    const root = roots.find((r) => r.currency === mine.currency);
    if (!root) continue;
    const leaf = {
      index: Number(mine.position),
      userId: ctx.auth.user.publicId,
      balance: Number(mine.balance),
      nonce: mine.nonce,
    };
    proofs.push(proofOf(publication, root, await trees(root), leaf));
  }
  return { publication: publicationView(publication, roots), proofs };
}
