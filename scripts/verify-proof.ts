// Checks a downloaded proof of liabilities offline (docs/trust.md, "Proof of liabilities"):
//
//   node scripts/verify-proof.ts proof.json [--root <hash>]…
//
// proof.json is the answer of GET /rest/v1/proof/me as downloaded (or its `proofs`, or one proof).
// Each proof's leaf is hashed with its nonce, then the path up to the root, every value checked to
// be a whole, non-negative amount and every sum recomputed; the result must be the proof's root
// hash and total. `--root` adds root hashes copied from the public page: each proof's root must be
// one of them. Nothing is fetched. Prints one line; exit status 0 when valid, 1 when not, 2 when
// the file cannot be read as a proof.

import { readFileSync } from 'node:fs';
import { type LiabilityProof, verifyLiabilityProof } from '../src/lib/shared/liabilities-proof.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../src/lib/shared/money.ts';

const USAGE = 'Usage: node scripts/verify-proof.ts proof.json [--root <hash>]…';

/** The proofs in what GET /rest/v1/proof/me answered, whichever part of it was saved. */
function proofsIn(document: unknown): LiabilityProof[] | undefined {
  const doc = document as { data?: { proofs?: unknown }; proofs?: unknown; version?: unknown } | null;
  const proofs = Array.isArray(doc) ? doc : (doc?.data?.proofs ?? doc?.proofs ?? (doc?.version ? [doc] : undefined));
  return Array.isArray(proofs) ? (proofs as LiabilityProof[]) : undefined;
}

function parseArguments(argv: string[]): { file: string; roots: string[] } | undefined {
  const roots: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--root') {
      const root = argv[++i];
      if (!root) return undefined;
      roots.push(root.toLowerCase());
    } else if (!file) file = arg;
    else return undefined;
  }
  return file ? { file, roots } : undefined;
}

const amount = (proof: LiabilityProof, minor: number) =>
  `${fromMinorUnits(minor, CRYPTO_DECIMALS[proof.currency] ?? 0)} ${proof.currency}`;

/** Why the proofs are not valid, or the line that says what they show. */
async function verdictOf(proofs: LiabilityProof[], roots: string[]): Promise<{ ok: boolean; line: string }> {
  if (proofs.length === 0) return { ok: false, line: 'INVALID: the file holds no proof (nothing was owed to you).' };
  const person = proofs[0]?.leaf?.userId;
  const shown: string[] = [];
  for (const proof of proofs) {
    const verdict = await verifyLiabilityProof(proof, person);
    const name = `${String(proof?.currency)} proof`;
    if (!verdict.ok) return { ok: false, line: `INVALID: ${name}: ${verdict.reason}.` };
    if (roots.length > 0 && !roots.includes(verdict.rootHash))
      return { ok: false, line: `INVALID: ${name}: its root ${verdict.rootHash} is not one of the roots given.` };
    shown.push(
      `${amount(proof, verdict.balance)} in root ${verdict.rootHash.slice(0, 16)}… (total ${amount(proof, verdict.total)})`,
    );
  }
  const publication = `${proofs[0]?.publicationId} of ${proofs[0]?.publishedAt}`;
  const compare = roots.length > 0 ? 'matching the roots given' : 'compare the roots with the published ones';
  return {
    ok: true,
    line: `VALID: ${person} is included with ${shown.join('; ')}: publication ${publication}; ${compare}.`,
  };
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  let proofs: LiabilityProof[] | undefined;
  try {
    proofs = proofsIn(JSON.parse(readFileSync(args.file, 'utf8')));
  } catch (error) {
    console.error(`UNREADABLE: ${args.file}: ${(error as Error).message}`);
    return 2;
  }
  if (!proofs) {
    console.error(`UNREADABLE: ${args.file} is not a proof of liabilities (GET /rest/v1/proof/me).`);
    return 2;
  }
  const { ok, line } = await verdictOf(proofs, args.roots);
  (ok ? console.log : console.error)(line);
  return ok ? 0 : 1;
}

process.exitCode = await main();
