import { asDatabase, type DatabaseLike } from '../../db/database.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../src/lib/shared/money.ts';
import { verifyLedger } from '../services/ledger/invariants.ts';
import { createProofRepository } from '../services/proof/repository.ts';
import { CommandError } from './user-commands.ts';

// Operator commands on the ledger (`npm run admin -- ledger:…`). Read-only: money enters only
// through the chain adapter and moves only through the ledger service, never from this CLI.

const COUNTS = `SELECT (SELECT count(*) FROM ledger_accounts) AS accounts,
  (SELECT count(*) FROM ledger_transactions) AS transactions`;

export function ledgerCommands(db: DatabaseLike) {
  const database = asDatabase(db);
  return {
    /** Every invariant of the ledger; a CommandError (exit status 1) listing what is broken. */
    async verify(): Promise<string> {
      const violations = await verifyLedger(db);
      if (violations.length > 0)
        throw new CommandError(
          `Ledger: ${violations.length} violation(s)\n${violations.map((v) => `  [${v.rule}] ${v.message}`).join('\n')}`,
        );
      const { accounts, transactions } = (await database.sql.get<{ accounts: number; transactions: number }>(
        COUNTS,
      )) ?? { accounts: 0, transactions: 0 };
      // What the platform owes people (docs/decisions/146-proof-of-liabilities.md): a proof's roots total these.
      const { owed } = await createProofRepository(db).snapshot();
      const owedText = (['BTC', 'USDT'] as const)
        .map((currency) => `${fromMinorUnits(owed[currency], CRYPTO_DECIMALS[currency])} ${currency}`)
        .join(', ');
      return `Ledger OK: ${transactions} transaction(s) across ${accounts} account(s); every invariant holds.\nOwed to people: ${owedText}.`;
    },
  };
}
