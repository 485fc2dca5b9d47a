// Proof of liabilities (issue 24; docs/decisions/146-proof-of-liabilities.md): the shape of a
// person's inclusion proof, the exact bytes every node hashes, and the verifier. Shared by the
// server (which builds the tree with the same encodings, server/services/proof/tree.ts), the
// offline command (scripts/verify-proof.ts) and, later, the wallet page: so it uses only Web APIs
// (crypto.subtle, TextEncoder) and imports nothing.
//
// A Merkle-sum tree after Maxwell (2014) with the fix of Hu, Zhang and Guo, "Breaking the Binding:
// Attacks on the Merkle Approach to Prove Liabilities and its Applications" (IACR ePrint 2018/1139):
// a node's hash covers both children's values, not only their sum, so the platform cannot show two
// people different values for the same node; and a leaf's hash covers its balance. Every value is
// a whole number of minor units from 0 to 2^53 - 1: a verifier refuses a negative one anywhere on
// its path, so a negative balance cannot lower the total where anyone who checks would see it.

export const PROOF_VERSION = 1;
export type ProofCurrency = 'BTC' | 'USDT';

/** One person's inclusion proof in one currency's tree of one publication. */
export interface LiabilityProof {
  version: typeof PROOF_VERSION;
  currency: ProofCurrency;
  /** `pol_…`: the publication, whose roots `GET /rest/v1/proof` lists. */
  publicationId: string;
  /** ISO 8601. */
  publishedAt: string;
  /** The published root: its hash (hex) and the total of every balance (minor units). */
  root: { hash: string; total: number };
  /** People in the tree; the tree is padded with empty leaves to `treeSize`, a power of two. */
  leafCount: number;
  treeSize: number;
  /** The person's leaf: their public user id, balance (minor units) and secret nonce (hex, 32 bytes). */
  leaf: { index: number; userId: string; balance: number; nonce: string };
  /** The siblings from the leaf up to the root's children: each one's hash (hex) and value. */
  path: { hash: string; value: number }[];
}

export type ProofVerdict =
  | { ok: true; currency: ProofCurrency; balance: number; total: number; rootHash: string }
  | { ok: false; reason: string };

const encoder = new TextEncoder();
const LEAF_TAG = encoder.encode('coinfair-pol/leaf/v1\0');
const NODE_TAG = encoder.encode('coinfair-pol/node/v1\0');
const PAD_TAG = encoder.encode('coinfair-pol/pad/v1\0');

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** A value as 8 bytes big-endian; callers hold it to 0 … 2^53 - 1. */
export function u64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(value / 2 ** 32));
  view.setUint32(4, value % 2 ** 32);
  return out;
}

export const isValue = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export function fromHex(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
}

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** What a person's leaf hashes: tag, currency, balance, nonce (32 bytes), then their public id. */
export const leafPreimage = (currency: ProofCurrency, balance: number, nonce: Uint8Array, userId: string) =>
  concat([LEAF_TAG, encoder.encode(`${currency}\0`), u64(balance), nonce, encoder.encode(userId)]);

/** What a padding leaf (value 0, nobody's) hashes: tag, currency, its index. */
export const padPreimage = (currency: ProofCurrency, index: number) =>
  concat([PAD_TAG, encoder.encode(`${currency}\0`), u64(index)]);

/** What an internal node hashes: both children's values and both hashes (Hu, Zhang, Guo's fix). */
export const nodePreimage = (leftValue: number, rightValue: number, left: Uint8Array, right: Uint8Array) =>
  concat([NODE_TAG, u64(leftValue), u64(rightValue), left, right]);

const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));

/** Why the proof's shape is wrong, or undefined when every field is where it belongs. */
function shapeProblem(proof: LiabilityProof): string | undefined {
  if (proof?.version !== PROOF_VERSION) return `not a version ${PROOF_VERSION} proof of liabilities`;
  if (proof.currency !== 'BTC' && proof.currency !== 'USDT') return 'unknown currency';
  const { leaf, path, root, treeSize } = proof;
  if (!leaf || !Array.isArray(path) || !root) return 'the leaf, path or root is missing';
  if (!isValue(treeSize) || treeSize < 1 || (treeSize & (treeSize - 1)) !== 0 || treeSize > 2 ** 30)
    return 'the tree size is not a power of two';
  if (2 ** path.length !== treeSize) return 'the path does not reach from a leaf to the root';
  if (!isValue(leaf.index) || leaf.index >= treeSize) return 'the leaf index is outside the tree';
  if (!isValue(leaf.balance)) return 'the balance is not a whole, non-negative amount';
  if (typeof leaf.userId !== 'string' || fromHex(leaf.nonce)?.length !== 32) return 'the leaf is malformed';
  if (!isValue(root.total) || fromHex(root.hash)?.length !== 32) return 'the root is malformed';
  for (const [level, node] of path.entries()) {
    if (!isValue(node?.value)) return `a negative or malformed value at level ${level + 1}`;
    if (fromHex(node.hash)?.length !== 32) return `a malformed hash at level ${level + 1}`;
  }
  return undefined;
}

/**
 * Recomputes the root from the person's leaf and the path, and compares it with the published
 * root and total. `expectedUserId`, when given, must be the leaf's: the proof is about that person.
 */
export async function verifyLiabilityProof(proof: LiabilityProof, expectedUserId?: string): Promise<ProofVerdict> {
  const problem = shapeProblem(proof);
  if (problem) return { ok: false, reason: problem };
  const { currency, leaf, path, root } = proof;
  if (expectedUserId !== undefined && leaf.userId !== expectedUserId)
    return { ok: false, reason: 'the leaf belongs to someone else' };
  let hash = await sha256(leafPreimage(currency, leaf.balance, fromHex(leaf.nonce) as Uint8Array, leaf.userId));
  let value = leaf.balance;
  for (const [level, sibling] of path.entries()) {
    const siblingHash = fromHex(sibling.hash) as Uint8Array;
    const onLeft = ((leaf.index >>> level) & 1) === 0;
    const sum = value + sibling.value;
    if (!isValue(sum)) return { ok: false, reason: `the sum overflows at level ${level + 1}` };
    hash = await sha256(
      onLeft
        ? nodePreimage(value, sibling.value, hash, siblingHash)
        : nodePreimage(sibling.value, value, siblingHash, hash),
    );
    value = sum;
  }
  if (toHex(hash) !== root.hash) return { ok: false, reason: 'the path does not lead to the published root hash' };
  if (value !== root.total) return { ok: false, reason: 'the path does not add up to the published total' };
  return { ok: true, currency, balance: leaf.balance, total: value, rootHash: root.hash };
}
