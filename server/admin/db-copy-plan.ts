import type { Database } from '../../db/database.ts';
import { CommandError } from './user-parts.ts';

// What `db:copy-to` copies and in which order, read from the two databases themselves rather than
// from db/schema/: this process builds the schema's tables for SQLite (DATABASE_URL is the
// source), and the target's catalog is what its constraints will hold the rows to.

export interface TablePlan {
  name: string;
  /** The columns both sides have, in the target's order. */
  columns: string[];
  /** Columns the target stores as integers: a value a double rounded must not pass unnoticed. */
  integerColumns: ReadonlySet<string>;
  /** The target's identity column, whose sequence must move past the copied keys. */
  identity: string | undefined;
}

/** Migration bookkeeping and SQLite's own tables: each engine keeps its own, never copied. */
const NOT_COPIED = /^(sqlite_|__drizzle_migrations$)/;
const INTEGER_TYPES = new Set(['bigint', 'integer', 'smallint']);

async function sourceTables(source: Database): Promise<Map<string, string[]>> {
  const rows = await source.sql.all<{ table: string; column: string }>(
    `SELECT m.name AS "table", c.name AS "column"
     FROM sqlite_master m JOIN pragma_table_info(m.name) c
     WHERE m.type = 'table' ORDER BY m.name, c.cid`,
  );
  const tables = new Map<string, string[]>();
  for (const { table, column } of rows) {
    if (NOT_COPIED.test(table)) continue;
    tables.set(table, [...(tables.get(table) ?? []), column]);
  }
  return tables;
}

interface TargetColumn {
  table: string;
  column: string;
  type: string;
  identity: string;
}

async function targetTables(target: Database): Promise<Map<string, TablePlan>> {
  const rows = await target.sql.all<TargetColumn>(
    `SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS "type", c.is_identity AS "identity"
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, TablePlan>();
  for (const row of rows) {
    let plan = tables.get(row.table);
    if (!plan) {
      plan = { name: row.table, columns: [], integerColumns: new Set(), identity: undefined };
      tables.set(row.table, plan);
    }
    plan.columns.push(row.column);
    if (INTEGER_TYPES.has(row.type)) (plan.integerColumns as Set<string>).add(row.column);
    if (row.identity === 'YES') plan.identity = row.column;
  }
  return tables;
}

/** Parent → child pairs of the target's foreign keys (a table referring to itself left out). */
async function foreignKeys(target: Database): Promise<{ child: string; parent: string }[]> {
  return target.sql.all<{ child: string; parent: string }>(
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
     FROM pg_constraint c
     JOIN pg_class child ON child.oid = c.conrelid
     JOIN pg_class parent ON parent.oid = c.confrelid
     JOIN pg_namespace n ON n.oid = child.relnamespace
     WHERE c.contype = 'f' AND n.nspname = current_schema() AND child.oid <> parent.oid`,
  );
}

/**
 * The tables with every table a foreign key points at before the tables that point at it; ties
 * by name, so two runs print the same order. A table referring to itself gets its rows in key
 * order, which puts a parent row first as long as parents are older than their children.
 */
export function foreignKeyOrder(
  tables: readonly string[],
  keys: readonly { child: string; parent: string }[],
): string[] {
  const waitingFor = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of keys) {
    if (waitingFor.has(child) && waitingFor.has(parent)) waitingFor.get(child)?.add(parent);
  }
  const order: string[] = [];
  while (waitingFor.size > 0) {
    const ready = [...waitingFor].filter(([, parents]) => parents.size === 0).map(([table]) => table);
    if (ready.length === 0) {
      throw new CommandError(
        `The foreign keys among ${[...waitingFor.keys()].sort().join(', ')} form a cycle: no order inserts them.`,
      );
    }
    const next = ready.sort()[0] as string;
    order.push(next);
    waitingFor.delete(next);
    for (const parents of waitingFor.values()) parents.delete(next);
  }
  return order;
}

/** Every column of the source must have a place in the target, and the other way round. */
function matchColumns(table: string, source: readonly string[], target: TablePlan): void {
  const missing = source.filter((column) => !target.columns.includes(column));
  const extra = target.columns.filter((column) => !source.includes(column));
  if (missing.length > 0 || extra.length > 0) {
    throw new CommandError(
      `Table ${table} differs between the databases (only in the source: ${missing.join(', ') || '-'}; ` +
        `only in the target: ${extra.join(', ') || '-'}). Both are migrated by this version: is the source's schema edited by hand?`,
    );
  }
}

/** The tables to copy, in foreign-key order; refused when the two schemas do not hold the same tables. */
export async function copyPlan(source: Database, target: Database): Promise<TablePlan[]> {
  const [from, to, keys] = await Promise.all([sourceTables(source), targetTables(target), foreignKeys(target)]);
  const onlySource = [...from.keys()].filter((table) => !to.has(table));
  const onlyTarget = [...to.keys()].filter((table) => !from.has(table));
  if (onlySource.length > 0 || onlyTarget.length > 0) {
    throw new CommandError(
      `The databases hold different tables (only in the source: ${onlySource.join(', ') || '-'}; ` +
        `only in the target: ${onlyTarget.join(', ') || '-'}).`,
    );
  }
  for (const [table, columns] of from) matchColumns(table, columns, to.get(table) as TablePlan);
  return foreignKeyOrder([...from.keys()], keys).map((table) => to.get(table) as TablePlan);
}
