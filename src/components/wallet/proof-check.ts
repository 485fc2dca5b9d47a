import { apiGet } from '../../lib/api-client.ts';
import type { LiabilityProof, ProofCurrency } from '../../lib/shared/liabilities-proof.ts';
import { verifyLiabilityProof } from '../../lib/shared/liabilities-proof.ts';
import type { MyProofView, ProofPublicationView } from '../../lib/shared/views/proof.ts';

// The wallet's check of the person's proof of liabilities (issue 24; docs/trust.md), loaded only
// when they press "Verify my balance", so the wallet's first script carries none of it: the
// person's proofs (GET /rest/v1/proof/me) are checked here in the browser with the same verifier
// as the offline command (src/lib/shared/liabilities-proof.ts), and each proof's root is compared
// with the one the public list (GET /rest/v1/proof) publishes for its publication.

/** Why one currency's proof failed: it does not add up, it is not the published root, or not the person's. */
export type ProofProblem = 'invalid' | 'unpublished' | 'someoneElse';

export interface CurrencyCheck {
  currency: ProofCurrency;
  /** The balance the proof commits to, minor units. */
  balance: number;
  rootHash: string;
  problem?: ProofProblem;
  /** The verifier's own words, for whoever looks closer (data-reason). */
  reason?: string;
}

export type ProofCheck =
  | { kind: 'none' }
  | { kind: 'network' }
  | { kind: 'checked'; publication: ProofPublicationView; checks: CurrencyCheck[]; file: string };

/** One proof against the verifier, the person and the published root of its publication. */
export async function checkOne(
  proof: LiabilityProof,
  userId: string,
  published: ProofPublicationView | undefined,
): Promise<CurrencyCheck> {
  const base = { currency: proof?.currency, balance: proof?.leaf?.balance, rootHash: String(proof?.root?.hash) };
  if (proof?.leaf?.userId !== userId) return { ...base, problem: 'someoneElse' };
  const verdict = await verifyLiabilityProof(proof, userId);
  if (!verdict.ok) return { ...base, problem: 'invalid', reason: verdict.reason };
  const root = published?.roots.find((r) => r.currency === verdict.currency);
  if (!root || root.rootHash !== verdict.rootHash || root.totalMinorUnits !== verdict.total)
    return { ...base, problem: 'unpublished', reason: 'the root is not the one GET /rest/v1/proof publishes' };
  return base;
}

/** The public list of publications, asked past any cache: a publication may be a few seconds old. */
async function publications(): Promise<ProofPublicationView[] | undefined> {
  try {
    const response = await fetch('/rest/v1/proof?limit=31', {
      cache: 'no-cache',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) return undefined;
    return ((await response.json()) as { data?: ProofPublicationView[] }).data;
  } catch {
    return undefined;
  }
}

/** Fetches the person's proofs and the published roots, and checks every proof. */
export async function checkMyProof(userId: string, locale: string): Promise<ProofCheck> {
  const [mine, list] = await Promise.all([
    apiGet<MyProofView>(`/rest/v1/proof/me?locale=${encodeURIComponent(locale)}`),
    publications(),
  ]);
  if (mine.status === 404) return { kind: 'none' };
  if (!mine.ok || !mine.data || !list) return { kind: 'network' };
  const proofs = Array.isArray(mine.data.proofs) ? mine.data.proofs : [];
  const publication = mine.data.publication;
  const published = list.find((p) => p.id === publication?.id);
  const checks = await Promise.all(proofs.map((proof) => checkOne(proof, userId, published)));
  // The answer as the offline command reads it (node scripts/verify-proof.ts proof.json).
  const file = `${JSON.stringify({ data: mine.data }, null, 2)}\n`;
  return { kind: 'checked', publication, checks, file };
}
