import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildSumTree, pathOf, type SumTree, type TreeLeaf, treeSizeFor } from '../../server/services/proof/tree.ts';
import {
  type LiabilityProof,
  leafPreimage,
  nodePreimage,
  toHex,
  verifyLiabilityProof,
} from '../../src/lib/shared/liabilities-proof.ts';

// The Merkle-sum tree of the proof of liabilities (docs/decisions/146-proof-of-liabilities.md):
// the server's builder and the shared verifier agree on every leaf of large random trees, and the
// verifier refuses every kind of tampering, including the attack of Hu, Zhang and Guo on
// Maxwell's original tree and a negative balance hidden under a sum.

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

/** A deterministic pseudo-random source, so a failure names the same tree again. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomLeaves(count: number, seed: number): TreeLeaf[] {
  const random = lcg(seed);
  return Array.from({ length: count }, (_, i) => {
    const roll = random();
    // Zero balances, dust, ordinary amounts and a few whales (up to 1,000 BTC in satoshi).
    const balance =
      roll < 0.2 ? 0 : roll < 0.4 ? Math.floor(random() * 1000) : Math.floor(random() * (roll > 0.98 ? 1e11 : 1e8));
    return { userId: `usr_${String(i).padStart(16, '0')}`, balance, nonce: randomBytes(32) };
  });
}

function proofFor(tree: SumTree, leaves: TreeLeaf[], index: number): LiabilityProof {
  const leaf = leaves[index] as TreeLeaf;
  return {
    version: 1,
    currency: tree.currency,
    publicationId: 'pol_0000000000000000',
    publishedAt: '2026-11-29T00:00:00.000Z',
    root: tree.root,
    leafCount: tree.leafCount,
    treeSize: tree.treeSize,
    leaf: { index, userId: leaf.userId, balance: leaf.balance, nonce: toHex(leaf.nonce) },
    path: pathOf(tree, index),
  };
}

const clone = (proof: LiabilityProof): LiabilityProof => structuredClone(proof);

describe('the Merkle-sum tree', () => {
  it('proves every one of 3,000 random balances, and its root totals them', async () => {
    const leaves = randomLeaves(3000, 24);
    const tree = buildSumTree('BTC', leaves);
    expect(tree.treeSize).toBe(4096);
    expect(tree.root.total).toBe(leaves.reduce((sum, leaf) => sum + leaf.balance, 0));
    // Every leaf's proof, checked by the browser's verifier (Web Crypto), a hundred at a time.
    for (let from = 0; from < leaves.length; from += 100) {
      const indexes = Array.from({ length: Math.min(100, leaves.length - from) }, (_, i) => from + i);
      const verdicts = await Promise.all(
        indexes.map((index) => verifyLiabilityProof(proofFor(tree, leaves, index), leaves[index]?.userId)),
      );
      for (const [i, verdict] of verdicts.entries())
        expect(verdict, `leaf ${from + i}`).toEqual({
          ok: true,
          currency: 'BTC',
          balance: leaves[from + i]?.balance,
          total: tree.root.total,
          rootHash: tree.root.hash,
        });
    }
  }, 60_000);

  it('holds at the edges: no leaf, one leaf, and either side of a power of two', async () => {
    expect(buildSumTree('USDT', []).root.total).toBe(0);
    expect(buildSumTree('USDT', []).treeSize).toBe(1);
    for (const count of [1, 2, 3, 4, 5, 7, 8, 9, 16, 17]) {
      const leaves = randomLeaves(count, count);
      const tree = buildSumTree('USDT', leaves);
      expect(tree.treeSize).toBe(treeSizeFor(count));
      for (const index of [0, count - 1])
        expect((await verifyLiabilityProof(proofFor(tree, leaves, index))).ok, `${count}:${index}`).toBe(true);
    }
  });

  it('gives a different root for the same balances with other nonces, and per currency', () => {
    const leaves = randomLeaves(50, 7);
    const again = leaves.map((leaf) => ({ ...leaf, nonce: randomBytes(32) }));
    expect(buildSumTree('BTC', leaves).root.hash).not.toBe(buildSumTree('BTC', again).root.hash);
    expect(buildSumTree('BTC', leaves).root.hash).not.toBe(buildSumTree('USDT', leaves).root.hash);
  });

  it('refuses to build over a negative, fractional or unsafe balance, or a short nonce', () => {
    const [leaf] = randomLeaves(1, 1) as [TreeLeaf];
    for (const balance of [-1, 0.5, 2 ** 53, Number.NaN])
      expect(() => buildSumTree('BTC', [{ ...leaf, balance }]), String(balance)).toThrow(RangeError);
    expect(() => buildSumTree('BTC', [{ ...leaf, nonce: new Uint8Array(16) }])).toThrow(RangeError);
    expect(() =>
      buildSumTree('BTC', [
        { ...leaf, balance: 2 ** 52 },
        { ...leaf, balance: 2 ** 52 },
      ]),
    ).toThrow(/2\^53/);
  });
});

describe('the verifier refuses tampering', () => {
  const leaves = randomLeaves(37, 99);
  const tree = buildSumTree('BTC', leaves);
  const honest = proofFor(tree, leaves, 21);
  const refused = async (change: (proof: LiabilityProof) => void, reason: RegExp, expectedUserId?: string) => {
    const proof = clone(honest);
    change(proof);
    const verdict = await verifyLiabilityProof(proof, expectedUserId);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(reason);
  };

  it('accepts the honest proof', async () => {
    expect((await verifyLiabilityProof(honest, leaves[21]?.userId)).ok).toBe(true);
  });

  it('refuses a changed leaf: balance, nonce, person or position', async () => {
    await refused((p) => {
      p.leaf.balance += 1;
    }, /root hash/);
    await refused((p) => {
      p.leaf.nonce = toHex(randomBytes(32));
    }, /root hash/);
    await refused((p) => {
      p.leaf.userId = 'usr_someone_else000';
    }, /root hash/);
    await refused((p) => {
      p.leaf.index ^= 1;
    }, /root hash/);
    await refused(() => {}, /someone else/, 'usr_0000000000000022');
  });

  it('refuses a changed path: a hash, a value, one level less or more', async () => {
    await refused((p) => {
      (p.path[2] as { hash: string }).hash = toHex(randomBytes(32));
    }, /root hash/);
    await refused((p) => {
      (p.path[3] as { value: number }).value += 1;
    }, /root hash/);
    await refused((p) => void p.path.pop(), /path does not reach/);
    await refused((p) => void p.path.push({ hash: toHex(randomBytes(32)), value: 0 }), /path does not reach/);
  });

  it('refuses another root or total', async () => {
    await refused((p) => {
      p.root.hash = toHex(randomBytes(32));
    }, /root hash/);
    await refused((p) => {
      p.root.total -= 1;
    }, /total/);
  });

  it('refuses what is not a proof: negative, fractional or text values, bad hex, an index outside the tree', async () => {
    await refused((p) => {
      (p.path[0] as { value: number }).value = -5;
    }, /negative/);
    await refused((p) => {
      (p.path[0] as { value: number }).value = 1.5;
    }, /negative or malformed/);
    await refused((p) => {
      (p.path[0] as { value: unknown }).value = '5';
    }, /malformed/);
    await refused((p) => {
      p.leaf.balance = -1;
    }, /balance/);
    await refused((p) => {
      p.leaf.nonce = 'zz';
    }, /malformed/);
    await refused((p) => {
      p.leaf.index = p.treeSize;
    }, /outside/);
    await refused((p) => {
      p.treeSize = 48;
    }, /power of two/);
    await refused((p) => {
      (p as { version: number }).version = 2;
    }, /version/);
    await refused((p) => {
      (p as { currency: string }).currency = 'ETH';
    }, /currency/);
    expect((await verifyLiabilityProof(null as unknown as LiabilityProof)).ok).toBe(false);
  });

  it('refuses a sum that overflows 2^53 - 1', async () => {
    await refused((p) => {
      p.leaf.balance = 2 ** 53 - 1;
      (p.path[0] as { value: number }).value = 1;
    }, /overflows/);
  });
});

describe('what the sums prevent', () => {
  /** A two-leaf tree the platform builds by hand, hashing whatever values it likes. */
  const person = { userId: 'usr_honest00000000', balance: 1000, nonce: randomBytes(32) };
  const leafHash = sha256(leafPreimage('BTC', person.balance, person.nonce, person.userId));
  const proofWith = (sibling: { hash: Uint8Array; value: number }, root: { hash: Uint8Array; total: number }) =>
    ({
      version: 1,
      currency: 'BTC',
      publicationId: 'pol_0000000000000000',
      publishedAt: '2026-11-29T00:00:00.000Z',
      root: { hash: toHex(root.hash), total: root.total },
      leafCount: 2,
      treeSize: 2,
      leaf: { index: 0, userId: person.userId, balance: person.balance, nonce: toHex(person.nonce) },
      path: [{ hash: toHex(sibling.hash), value: sibling.value }],
    }) satisfies LiabilityProof;

  it('a negative balance beside a person is seen by them and refused', async () => {
    // A fake account at -1,000 cancels the person's 1,000: the published total would be 0.
    const fake = sha256(randomBytes(32));
    const root = sha256(nodePreimage(person.balance, 0, leafHash, fake));
    const verdict = await verifyLiabilityProof(proofWith({ hash: fake, value: -1000 }, { hash: root, total: 0 }));
    expect(verdict).toEqual({ ok: false, reason: 'a negative or malformed value at level 1' });
  });

  it('a negative balance shown as zero does not lower the total the person computes', async () => {
    // The platform hashes the sibling as 0 to pass the sign check, but publishes the lower total.
    const fake = sha256(randomBytes(32));
    const root = sha256(nodePreimage(person.balance, 0, leafHash, fake));
    const verdict = await verifyLiabilityProof(proofWith({ hash: fake, value: 0 }, { hash: root, total: 0 }));
    expect(verdict).toEqual({ ok: false, reason: 'the path does not add up to the published total' });
  });

  it('the attack on Maxwell’s original tree fails: a node commits to both children’s values, not only their sum', async () => {
    // Hu, Zhang and Guo (ePrint 2018/1139): with only the sum in the parent's hash, the platform
    // could show this person a sibling of 0 and the sibling's owner a sibling of 0, publishing
    // max(a, b) instead of a + b. Here the parent's hash names the values it was built with.
    const sibling = sha256(randomBytes(32));
    const honestRoot = sha256(nodePreimage(person.balance, 500, leafHash, sibling));
    const lying = await verifyLiabilityProof(proofWith({ hash: sibling, value: 0 }, { hash: honestRoot, total: 1000 }));
    expect(lying.ok).toBe(false);
    const honest = await verifyLiabilityProof(
      proofWith({ hash: sibling, value: 500 }, { hash: honestRoot, total: 1500 }),
    );
    expect(honest.ok).toBe(true);
  });
});

describe('the browser verifier', () => {
  it('is a few KB: under 2 KB gzipped, with no import', async () => {
    const bundle = await build({
      entryPoints: ['src/lib/shared/liabilities-proof.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
    });
    const code = bundle.outputFiles[0]?.contents ?? new Uint8Array();
    expect(gzipSync(code).length).toBeLessThan(2048);
  });
});
