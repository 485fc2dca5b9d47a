import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSumTree, pathOf } from '../../server/services/proof/tree.ts';
import { type LiabilityProof, toHex } from '../../src/lib/shared/liabilities-proof.ts';
import type { MyProofView } from '../../src/lib/shared/views/proof.ts';

// `node scripts/verify-proof.ts proof.json`, the offline check of a downloaded proof of
// liabilities (docs/trust.md): one line, exit status 0 when valid, 1 when not, 2 for a file that
// is no proof. Run as a person would, with plain node and no network.

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'coinfair-proof-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const me = 'usr_AAAAAAAAAAAAAAAA';
const leaves = ['BTC', 'USDT'].map(() =>
  Array.from({ length: 9 }, (_, i) => ({
    userId: i === 4 ? me : `usr_${String(i).padStart(16, 'x')}`,
    balance: 1000 * i + 7,
    nonce: randomBytes(32),
  })),
);
const proofs = (['BTC', 'USDT'] as const).map((currency, c): LiabilityProof => {
  const tree = buildSumTree(currency, leaves[c] ?? []);
  const leaf = leaves[c]?.[4] as { userId: string; balance: number; nonce: Uint8Array };
  return {
    version: 1,
    currency,
    publicationId: 'pol_BBBBBBBBBBBBBBBB',
    publishedAt: '2026-11-29T00:00:00.000Z',
    root: tree.root,
    leafCount: tree.leafCount,
    treeSize: tree.treeSize,
    leaf: { index: 4, userId: leaf.userId, balance: leaf.balance, nonce: toHex(leaf.nonce) },
    path: pathOf(tree, 4),
  };
});

async function verify(content: unknown, ...extra: string[]) {
  const file = join(folder, `${Math.random()}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/verify-proof.ts', file, ...extra]);
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

// Each case starts Node once or more: 30 s, as a loaded machine took over the default 5.
describe('node scripts/verify-proof.ts', { timeout: 30_000 }, () => {
  it('says VALID in one line for the API answer as downloaded, naming the balances and roots', async () => {
    const answer: { data: MyProofView } = {
      data: { publication: { id: 'pol_BBBBBBBBBBBBBBBB', publishedAt: 0, roots: [] }, proofs },
    };
    const { code, out } = await verify(answer);
    expect(code).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(/^VALID: usr_AAAAAAAAAAAAAAAA is included with 0\.00004007 BTC in root [0-9a-f]{16}…/);
    expect(out).toContain('0.004007 USDT in root');
  });

  it('accepts one proof alone, and checks it against the roots given', async () => {
    expect((await verify(proofs[0])).code).toBe(0);
    expect((await verify(proofs[0], '--root', proofs[0]?.root.hash ?? '')).code).toBe(0);
    const other = await verify(proofs[0], '--root', 'ab'.repeat(32));
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/^INVALID: BTC proof: its root [0-9a-f]{64} is not one of the roots given\.$/m);
  });

  it('says INVALID (exit status 1) for a tampered balance, sibling value or root', async () => {
    const tampered = structuredClone(proofs);
    (tampered[1] as LiabilityProof).leaf.balance += 1;
    const balance = await verify({ proofs: tampered });
    expect(balance).toEqual({
      code: 1,
      out: 'INVALID: USDT proof: the path does not lead to the published root hash.\n',
    });
    const sibling = structuredClone(proofs[0]) as LiabilityProof;
    (sibling.path[1] as { value: number }).value = -1;
    expect((await verify(sibling)).out).toContain('INVALID: BTC proof: a negative or malformed value at level 2.');
    const total = structuredClone(proofs[0]) as LiabilityProof;
    total.root.total += 1;
    expect(await verify(total)).toMatchObject({ code: 1 });
  });

  it('refuses (exit status 2) a file that is not a proof, and no file at all', async () => {
    expect(await verify('{ not json')).toMatchObject({ code: 2, out: expect.stringMatching(/^UNREADABLE/) });
    expect(await verify({ data: { something: 1 } })).toMatchObject({ code: 2 });
    const none = await run(process.execPath, ['scripts/verify-proof.ts']).catch((error) => error);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage/);
  });
});
