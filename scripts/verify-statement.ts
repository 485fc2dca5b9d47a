// Checks a signed account statement offline (issue 24; docs/trust.md):
//
//   node scripts/verify-statement.ts statement.json [--key key.json]
//
// statement.json is what GET /rest/v1/statements/current or /rest/v1/statements/month answered
// (the whole answer or its `data`); key.json is the platform's published key document
// (GET /.well-known/coinfair-statement-key), one JWK of it, or a PEM public key. Without --key the
// signature is checked against the key the file carries, and the verdict names it for comparison.
// No network and no database: only Node's crypto. Prints one line; exit 0 valid, 1 invalid, 2 usage.
import { readFileSync } from 'node:fs';
import { verifySavedStatement } from '../server/services/statements/verify.ts';

const USAGE = 'usage: node scripts/verify-statement.ts statement.json [--key key.json]';

function main(args: string[]): number {
  const keyAt = args.indexOf('--key');
  const keyPath = keyAt === -1 ? undefined : args[keyAt + 1];
  const rest = keyAt === -1 ? args : args.filter((_, index) => index !== keyAt && index !== keyAt + 1);
  const [statementPath, ...extra] = rest;
  if (!statementPath || extra.length > 0 || (keyAt !== -1 && !keyPath)) {
    console.error(USAGE);
    return 2;
  }
  let statementText: string;
  let keyText: string | undefined;
  try {
    statementText = readFileSync(statementPath, 'utf8');
    keyText = keyPath === undefined ? undefined : readFileSync(keyPath, 'utf8');
  } catch (error) {
    console.error(`cannot read ${(error as NodeJS.ErrnoException).path ?? 'a file'}: ${(error as Error).message}`);
    return 2;
  }
  const verdict = verifySavedStatement(statementText, keyText);
  (verdict.ok ? console.log : console.error)(verdict.message);
  return verdict.ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
