import { connectDatabase, type Database } from '../../db/database.ts';
import { moveIdentitiesPastSeededIds } from '../../db/seed/bulk.ts';
import { copyPlan, type TablePlan } from './db-copy-plan.ts';
import { copyTable, countRows } from './db-copy-rows.ts';
import { ledgerCommands } from './ledger-commands.ts';
import { CommandError } from './user-parts.ts';

// `npm run admin -- db:copy-to <postgres-url>` (issue 17): an existing SQLite marketplace moved to
// PostgreSQL. The target is migrated, must be empty, and receives every table in foreign-key order
// inside ONE PostgreSQL transaction: a copy that fails half-way leaves the target as empty as it
// found it, so the operator fixes the cause and runs the command again. Per-table transactions
// could not offer that: the ledger's triggers (db/migrations-pg/0001_money_rules.sql) refuse
// DELETE and TRUNCATE on its tables, so a half-copied ledger could only be dropped with the whole
// database, and the emptiness check would refuse the re-run. The copy only ever INSERTs, which no
// trigger forbids, so the money rules stay exactly as strict as in normal use. The source is read
// inside one SQLite transaction too, so the copy is one consistent moment of it (a server still
// writing to it waits; stop it first). Then the identities move past the copied keys, the row
// counts are compared table by table, and the ledger's invariants are checked on the target.

export interface DbCopyOptions {
  /** Progress, one line at a time (the command prints it as it goes). */
  log: (line: string) => void;
  /** A URL as it may be printed: without its password (scripts/open-database.ts `displayUrl`). */
  displayUrl: (url: string) => string;
  now?: () => number;
}

/** The tables that already hold rows, with their counts. PostgreSQL's migrations insert no rows, so any row is data. */
async function filledTables(target: Database, plans: readonly TablePlan[]): Promise<string[]> {
  const filled: string[] = [];
  for (const plan of plans) {
    const rows = await countRows(target, plan.name);
    if (rows > 0) filled.push(`${plan.name} (${rows} rows)`);
  }
  return filled;
}

/** Where the copy is: the table a failure names. */
interface Progress {
  table: string | undefined;
}

/** Inside the target's transaction: refuses a filled target, then copies every table and moves the identities. */
async function copyAll(
  source: Database,
  target: Database,
  plans: readonly TablePlan[],
  progress: Progress,
  log: DbCopyOptions['log'],
) {
  const filled = await filledTables(target, plans);
  if (filled.length > 0) {
    throw new CommandError(
      `Refused: the target already holds data in ${filled.join(', ')}. db:copy-to fills an empty, freshly created database only.`,
    );
  }
  let total = 0;
  for (const plan of plans) {
    progress.table = plan.name;
    const copied = await copyTable(source, target, plan);
    total += copied;
    log(`${plan.name}: ${copied} rows`);
  }
  const identities = plans.flatMap((plan) => (plan.identity ? [{ table: plan.name, column: plan.identity }] : []));
  progress.table = undefined;
  await moveIdentitiesPastSeededIds(target, identities);
  return total;
}

/** Each table's rows counted on both sides; the differences, one line each. */
async function countMismatches(source: Database, target: Database, plans: readonly TablePlan[]): Promise<string[]> {
  const mismatches: string[] = [];
  for (const plan of plans) {
    const [from, to] = [await countRows(source, plan.name), await countRows(target, plan.name)];
    if (from !== to) mismatches.push(`  ${plan.name}: ${from} rows in the source, ${to} in the target`);
  }
  return mismatches;
}

/** The copy on an opened, migrated target; what the command prints last. */
export async function copyDatabase(source: Database, target: Database, options: DbCopyOptions): Promise<string> {
  const { log, now = Date.now } = options;
  const started = now();
  const plans = await copyPlan(source, target);
  const progress: Progress = { table: undefined };
  // Source transaction outside, target transaction inside: the counts below still see the moment copied.
  const { total, mismatches } = await source.sql
    .transaction(async () => {
      const total = await target.sql.transaction(() => copyAll(source, target, plans, progress, log));
      return { total, mismatches: await countMismatches(source, target, plans) };
    })
    .catch((error: unknown) => {
      if (error instanceof CommandError || progress.table === undefined) throw error;
      // A row PostgreSQL refused (a constraint SQLite did not hold it to, a value of the wrong type).
      const reason = error instanceof Error ? error.message : String(error);
      throw new CommandError(`The copy stopped at table ${progress.table}: ${reason}. Nothing was committed.`);
    });
  if (mismatches.length > 0) {
    throw new CommandError(`Row counts differ after the copy:\n${mismatches.join('\n')}`);
  }
  log(`Row counts equal in all ${plans.length} tables; identities moved past the copied keys.`);
  const verified = await ledgerCommands(target, { audit: false }).verify();
  log(verified);
  const seconds = ((now() - started) / 1000).toFixed(1);
  return `Copied ${total} rows in ${plans.length} tables in ${seconds} s.`;
}

export function dbCopyCommands(source: Database, options: DbCopyOptions) {
  return {
    /** Migrates the PostgreSQL database `url` names, then copies this (SQLite) database into it. */
    async copyTo(url: string, sourceUrl: string): Promise<string> {
      if (source.dialect !== 'sqlite') {
        throw new CommandError('db:copy-to copies from a SQLite database: DATABASE_URL must name the SQLite file.');
      }
      if (!/^postgres(ql)?:\/\//i.test(url)) {
        throw new CommandError(`db:copy-to copies into PostgreSQL: ${options.displayUrl(url)} is no postgres:// URL.`);
      }
      options.log(`Copying ${options.displayUrl(sourceUrl)} into ${options.displayUrl(url)}.`);
      const target = await connectDatabase(url, { poolSize: 2 });
      try {
        await target.migrate();
        options.log('Target migrated.');
        return await copyDatabase(source, target, options);
      } finally {
        await target.close();
      }
    },
  };
}
