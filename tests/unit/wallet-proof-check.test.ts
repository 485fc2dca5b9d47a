import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildSumTree, pathOf, type TreeLeaf } from '../../server/services/proof/tree.ts';
import { checkOne } from '../../src/components/wallet/proof-check.ts';
import { type LiabilityProof, toHex } from '../../src/lib/shared/liabilities-proof.ts';
import type { ProofPublicationView } from '../../src/lib/shared/views/proof.ts';

// The wallet's check of a person's proof (src/components/wallet/proof-check.ts): a proof passes
// only when the verifier accepts it, it is the person's, and its root and total are the ones the
// public list publishes for its publication; each other case names its problem.

const leaves: TreeLeaf[] = Array.from({ length: 5 }, (_, i) => ({
  userId: `usr_${String(i).padStart(16, '0')}`,
  balance: (i + 1) * 1_000_000,
  nonce: randomBytes(32),
}));
const tree = buildSumTree('BTC', leaves);
const ME = leaves[2]?.userId as string;

const proof = (): LiabilityProof => ({
  version: 1,
  currency: 'BTC',
  publicationId: 'pol_0000000000000001',
  publishedAt: '2026-11-29T00:00:00.000Z',
  root: tree.root,
  leafCount: tree.leafCount,
  treeSize: tree.treeSize,
  leaf: { index: 2, userId: ME, balance: 3_000_000, nonce: toHex(leaves[2]?.nonce as Uint8Array) },
  path: pathOf(tree, 2),
});

const published = (rootHash = tree.root.hash, total = tree.root.total): ProofPublicationView => ({
  id: 'pol_0000000000000001',
  publishedAt: Date.parse('2026-11-29T00:00:00.000Z'),
  roots: [{ currency: 'BTC', rootHash, total: '0', totalMinorUnits: total, leafCount: 5, treeSize: 8 }],
});

describe("the wallet's proof check", () => {
  it('passes a proof that verifies, is the person’s and leads to the published root', async () => {
    expect(await checkOne(proof(), ME, published())).toEqual({
      currency: 'BTC',
      balance: 3_000_000,
      rootHash: tree.root.hash,
    });
  });

  it('fails a proof whose amount was changed', async () => {
    const tampered = proof();
    tampered.leaf.balance += 1;
    expect((await checkOne(tampered, ME, published())).problem).toBe('invalid');
  });

  it('fails a proof that verifies but leads to another root than the published one', async () => {
    expect((await checkOne(proof(), ME, published('00'.repeat(32)))).problem).toBe('unpublished');
    expect((await checkOne(proof(), ME, published(undefined, tree.root.total + 1))).problem).toBe('unpublished');
    // A publication the public list does not hold proves nothing.
    expect((await checkOne(proof(), ME, undefined)).problem).toBe('unpublished');
  });

  it('fails a proof of someone else’s leaf', async () => {
    expect((await checkOne(proof(), leaves[0]?.userId as string, published())).problem).toBe('someoneElse');
  });
});
