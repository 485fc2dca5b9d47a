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
  /** Per level, from the leaves (level 0) up to the root: the hashes end to end, 32 bytes each, and the values. */
  hashes: Uint8Array[];
  values: Float64Array[];
}

const sha256 = (bytes: Uint8Array): Uint8Array => createHash('sha256').update(bytes).digest();

/** The smallest power of two that holds `count` leaves (1 for an empty tree: one padding leaf). */
export const treeSizeFor = (count: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, count)));

/** The level of the leaves: people's leaves in order, then the padding. */
function leafLevel(currency: ProofCurrency, leaves: readonly TreeLeaf[], treeSize: number) {
  const hashes = new Uint8Array(treeSize * 32);
  const values = new Float64Array(treeSize);
  for (const [index, leaf] of leaves.entries()) {
    if (!isValue(leaf.balance)) throw new RangeError(`Leaf ${index}: ${leaf.balance} is not a non-negative amount.`);
    if (leaf.nonce.length !== 32) throw new RangeError(`Leaf ${index}: the nonce is not 32 bytes.`);
    hashes.set(sha256(leafPreimage(currency, leaf.balance, leaf.nonce, leaf.userId)), index * 32);
    values[index] = leaf.balance;
  }
  for (let index = leaves.length; index < treeSize; index++)
    hashes.set(sha256(padPreimage(currency, index)), index * 32);
  return { hashes, values };
}

/**
 * The level above `below`. Each node's bytes are written into one buffer laid out as the shared
 * module's nodePreimage (tag, both values, both hashes), so a million nodes allocate no preimage.
 */
function levelAbove(below: { hashes: Uint8Array; values: Float64Array }) {
  const width = below.values.length / 2;
  const up = { hashes: new Uint8Array(width * 32), values: new Float64Array(width) };
  const scratch = nodePreimage(0, 0, new Uint8Array(32), new Uint8Array(32));
  const at = scratch.length - 80;
  const view = new DataView(scratch.buffer, scratch.byteOffset, scratch.length);
  for (let i = 0; i < width; i++) {
    const [left, right] = [below.values[2 * i] as number, below.values[2 * i + 1] as number];
    const sum = left + right;
    if (!isValue(sum)) throw new RangeError('The total exceeds 2^53 - 1 minor units.');
    view.setUint32(at, Math.floor(left / 2 ** 32));
    view.setUint32(at + 4, left % 2 ** 32);
    view.setUint32(at + 8, Math.floor(right / 2 ** 32));
    view.setUint32(at + 12, right % 2 ** 32);
    scratch.set(below.hashes.subarray(64 * i, 64 * i + 64), at + 16);
    up.hashes.set(sha256(scratch), 32 * i);
    up.values[i] = sum;
  }
  return up;
}

/** Builds the tree over `leaves` in their order; refuses a negative, fractional or unsafe amount. */
export function buildSumTree(currency: ProofCurrency, leaves: readonly TreeLeaf[]): SumTree {
  const treeSize = treeSizeFor(leaves.length);
  const levels = [leafLevel(currency, leaves, treeSize)];
  for (let top = levels[0]; top && top.values.length > 1; top = levels.at(-1)) levels.push(levelAbove(top));
  const root = levels.at(-1) as { hashes: Uint8Array; values: Float64Array };
  return {
    currency,
    leafCount: leaves.length,
    treeSize,
    root: { hash: toHex(root.hashes), total: root.values[0] as number },
    hashes: levels.map((level) => level.hashes),
    values: levels.map((level) => level.values),
  };
}

/** The siblings of leaf `index` from the bottom up: what its owner needs besides the leaf itself. */
export function pathOf(tree: SumTree, index: number): { hash: string; value: number }[] {
  if (!Number.isInteger(index) || index < 0 || index >= tree.leafCount) throw new RangeError(`No leaf ${index}.`);
  const path: { hash: string; value: number }[] = [];
  for (let level = 0, at = index; level < tree.hashes.length - 1; level++, at >>>= 1) {
    const sibling = at ^ 1;
    path.push({
      hash: toHex((tree.hashes[level] as Uint8Array).subarray(32 * sibling, 32 * sibling + 32)),
      value: (tree.values[level] as Float64Array)[sibling] as number,
    });
  }
  return path;
}
