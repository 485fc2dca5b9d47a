import type { DatabaseLike } from '../../db/database.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../src/lib/shared/money.ts';
import { systemContext } from '../services/context.ts';
import { createAuditLog } from '../services/operators/audit.ts';
import { checkLedger, runLedgerCheck } from '../services/operators/ledger-check.ts';
import { CommandError } from './user-commands.ts';
import { cliActor } from './user-parts.ts';

// Operator commands on the ledger (`npm run admin -- ledger:…`). Read-only: money enters only
// through the chain adapter and moves only through the ledger service, never from this CLI. The
// check is the console's (server/services/operators/ledger-check.ts), and so is its audit row.

/**
 * `audit: false` checks without a row in the operators' log: db:copy-to's check of the copy it
 * just made, whose tables must hold exactly the source's rows.
 */
export function ledgerCommands(
  db: DatabaseLike,
  { audit = true, now = Date.now }: { audit?: boolean; now?: () => number } = {},
) {
  return {
    /** Every invariant of the ledger; a CommandError (exit status 1) listing what is broken. */
    async verify(): Promise<string> {
      const result = audit
        ? await runLedgerCheck(
            { db, audit: createAuditLog(db, now), now },
            systemContext('admin', 'operator'),
            cliActor(),
          )
        : await checkLedger(db, now);
      const { violations, transactions, accounts, owed } = result;
      if (violations.length > 0)
        throw new CommandError(
          `Ledger: ${violations.length} violation(s)\n${violations.map((v) => `  [${v.rule}] ${v.message}`).join('\n')}`,
        );
      // What the platform owes people (docs/decisions/146-proof-of-liabilities.md): a proof's roots total these.
      const owedText = (['BTC', 'USDT'] as const)
        .map((currency) => `${fromMinorUnits(owed[currency], CRYPTO_DECIMALS[currency])} ${currency}`)
        .join(', ');
      return `Ledger OK: ${transactions} transaction(s) across ${accounts} account(s); every invariant holds.\nOwed to people: ${owedText}.`;
    },
  };
}
