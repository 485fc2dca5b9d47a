import { randomBytes, randomInt } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import { LEDGER_CURRENCIES, type LedgerCurrency } from '../../../db/schema/index.ts';
import { toHex } from '../../../src/lib/shared/liabilities-proof.ts';
import type { ProofPublicationView } from '../../../src/lib/shared/views/proof.ts';
import type { ServiceContext } from '../context.ts';
import type { LedgerSnapshot, PersonBalance, ProofRepository } from './repository.ts';
import { buildSumTree, type SumTree } from './tree.ts';
import { publicationView } from './views.ts';

// Publishing (issue 24; docs/decisions/146-proof-of-liabilities.md): one snapshot of the ledger,
// per currency a Merkle-sum tree over every person's liabilities in a fresh random order with fresh
// nonces, the roots kept for good and the leaves kept privately for the latest publications, so a
// person can be handed their proof. The daily job (the jobs' leader) and the operator's
// `npm run admin -- proof:publish` both come here.

/** Publications whose private leaves are kept: a month of daily ones. Older roots stay, without proofs. */
export const KEEP_LEAVES = 31;

export interface PublishDeps {
  repo: ProofRepository;
  now: () => number;
  /** Random bytes (nonces); tests pass their own. */
  random?: (size: number) => Buffer;
}

export interface PublishInput {
  source: 'schedule' | 'operator';
}

/** A snapshot the ledger's own sums contradict is never published: the proof would be false. */
function checkSnapshot(snapshot: LedgerSnapshot): void {
  for (const currency of LEDGER_CURRENCIES) {
    const { owed, platform } = { owed: snapshot.owed[currency], platform: snapshot.platform[currency] };
    if (owed + platform !== 0)
      throw new Error(
        `Proof of liabilities: ${currency} accounts sum to ${owed + platform}, not 0 (npm run admin -- ledger:verify); nothing published.`,
      );
  }
  const negative = snapshot.balances.find((row) => row.balance < 0);
  if (negative)
    throw new Error(`Proof of liabilities: user ${negative.userId} is owed ${negative.balance}; nothing published.`);
}

/** Fisher–Yates with a cryptographic source: where a person sits says nothing about them. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function treeOf(currency: LedgerCurrency, people: PersonBalance[], random: (size: number) => Buffer) {
  const rows = shuffled(people).map((person, position) => ({
    position,
    userId: person.userId,
    publicId: person.publicId,
    balance: person.balance,
    nonce: random(32),
  }));
  const tree = buildSumTree(
    currency,
    rows.map((row) => ({ userId: row.publicId, balance: row.balance, nonce: row.nonce })),
  );
  return { tree, rows: rows.map(({ publicId: _, nonce, ...row }) => ({ ...row, nonce: toHex(nonce) })) };
}

export async function publish(
  { repo, now, random = randomBytes }: PublishDeps,
  _ctx: ServiceContext,
  { source }: PublishInput,
): Promise<ProofPublicationView> {
  const snapshot = await repo.snapshot();
  checkSnapshot(snapshot);
  const publishedAt = now();
  const built = LEDGER_CURRENCIES.map((currency) =>
    treeOf(
      currency,
      snapshot.balances.filter((row) => row.currency === currency),
      random,
    ),
  );
  for (const { tree } of built)
    if (tree.root.total !== snapshot.owed[tree.currency])
      throw new Error(
        `Proof of liabilities: the ${tree.currency} tree sums to ${tree.root.total}, the ledger to ${snapshot.owed[tree.currency]}.`,
      );
  const publicId = newId('pol');
  const rootOf = (tree: SumTree) => ({
    currency: tree.currency,
    rootHash: tree.root.hash,
    total: tree.root.total,
    leafCount: tree.leafCount,
    treeSize: tree.treeSize,
  });
  const publicationId = await repo.insert(
    { publicId, publishedAt, ledgerHighWater: snapshot.highWater, source },
    built.map(({ tree }) => rootOf(tree)),
    built.map(({ tree, rows }) => ({ currency: tree.currency, rows })),
  );
  await repo.pruneLeaves(KEEP_LEAVES);
  return publicationView(
    { id: publicationId, publicId, publishedAt, ledgerHighWater: snapshot.highWater, source },
    built.map(({ tree }) => ({ publicationId, ...rootOf(tree) })),
  );
}
