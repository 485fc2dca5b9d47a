import { createHash } from 'node:crypto';
import {
  isValue,
  leafPreimage,
  nodePreimage,
  type ProofCurrency,
  padPreimage,
  toHex,
} from '../../../src/lib/shared/liabilities-proof.ts';

// The Merkle-sum tree of one currency's liabilities (docs/decisions/146-proof-of-liabilities.md):
// built here with Node's synchronous SHA-256 over exactly the bytes the shared verifier hashes
// (src/lib/shared/liabilities-proof.ts), so a tree of a million leaves takes about a second and
// never awaits. Pure: the service decides who is in it, in which order, with which nonces.

export interface TreeLeaf {
  /** The person's public id (`usr_…`), hashed into the leaf so no two people can share one. */
  userId: string;
  /** Minor units, 0 … 2^53 - 1. */
  balance: number;
  /** 32 random bytes, secret to the person. */
  nonce: Uint8Array;
}

export interface SumTree {
  currency: ProofCurrency;
  leafCount: number;
  treeSize: number;
  root: { hash: string; total: number };
  /** Level 0 holds the leaves; the last level holds the root alone. */
  hashes: Uint8Array[][];
  values: number[][];
}

const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();

/** The smallest power of two that holds `count` leaves (1 for an empty tree: one padding leaf). */
export const treeSizeFor = (count: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, count)));

/** Builds the tree over `leaves` in their order; refuses a negative, fractional or unsafe amount. */
export function buildSumTree(currency: ProofCurrency, leaves: readonly TreeLeaf[]): SumTree {
  const treeSize = treeSizeFor(leaves.length);
  const hashes: Uint8Array[] = [];
  const values: number[] = [];
  for (const [index, leaf] of leaves.entries()) {
    if (!isValue(leaf.balance)) throw new RangeError(`Leaf ${index}: ${leaf.balance} is not a non-negative amount.`);
    if (leaf.nonce.length !== 32) throw new RangeError(`Leaf ${index}: the nonce is not 32 bytes.`);
    hashes.push(sha256(leafPreimage(currency, leaf.balance, leaf.nonce, leaf.userId)));
    values.push(leaf.balance);
  }
  for (let index = leaves.length; index < treeSize; index++) {
    hashes.push(sha256(padPreimage(currency, index)));
    values.push(0);
  }
  const levels = { hashes: [hashes], values: [values] };
  for (let width = treeSize; width > 1; width /= 2) {
    const below = { hashes: levels.hashes.at(-1) as Uint8Array[], values: levels.values.at(-1) as number[] };
    const up: { hashes: Uint8Array[]; values: number[] } = { hashes: [], values: [] };
    for (let i = 0; i < width; i += 2) {
      const [left, right] = [below.values[i] as number, below.values[i + 1] as number];
      const sum = left + right;
      if (!isValue(sum)) throw new RangeError('The total exceeds 2^53 - 1 minor units.');
      up.hashes.push(
        sha256(nodePreimage(left, right, below.hashes[i] as Uint8Array, below.hashes[i + 1] as Uint8Array)),
      );
      up.values.push(sum);
    }
    levels.hashes.push(up.hashes);
    levels.values.push(up.values);
  }
  const top = levels.hashes.length - 1;
  return {
    currency,
    leafCount: leaves.length,
    treeSize,
    root: { hash: toHex(levels.hashes[top]?.[0] as Uint8Array), total: levels.values[top]?.[0] as number },
    hashes: levels.hashes,
    values: levels.values,
  };
}

/** The siblings of leaf `index` from the bottom up: what its owner needs besides the leaf itself. */
export function pathOf(tree: SumTree, index: number): { hash: string; value: number }[] {
  if (!Number.isInteger(index) || index < 0 || index >= tree.leafCount) throw new RangeError(`No leaf ${index}.`);
  const path: { hash: string; value: number }[] = [];
  for (let level = 0, at = index; level < tree.hashes.length - 1; level++, at >>>= 1) {
    const sibling = at ^ 1;
    path.push({
      hash: toHex(tree.hashes[level]?.[sibling] as Uint8Array),
      value: tree.values[level]?.[sibling] as number,
    });
  }
  return path;
}
