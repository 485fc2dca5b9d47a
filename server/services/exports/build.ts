import { immediate, systemContext } from '../context.ts';
import { writeExportFile } from './assemble.ts';
import { csvLine } from './csv.ts';
import type { ExportsDeps } from './deps.ts';
import type { ExportRow } from './repository.ts';
import { type ExportRange, FILE_COLUMNS, SECTIONS } from './sections.ts';

// One step of an export's build (the job runs steps one after another on the jobs' leader):
//   queued   → count the rows, building;
//   building → read the next chunk of the current section, render it, and in one transaction
//              store the text and move the cursor past it (compared with where it was read);
//   done     → write the file from the stored chunks, then mark it ready, drop the chunks and
//              notify the person, in one transaction.
// Every step starts from the row, so a process that stops anywhere leaves the next one to continue:
// a chunk is stored and counted exactly once, and a half-written file is written again.

export type StepResult = 'started' | 'chunk' | 'ready' | 'lost';

const rangeOf = (row: ExportRow): ExportRange => ({ userId: row.userId, fromAt: row.fromAt, toAt: row.toAt });

async function countRows(deps: ExportsDeps, row: ExportRow): Promise<number> {
  let total = 0;
  for (const section of SECTIONS) total += await section.count(deps.repo.sql, rangeOf(row));
  return total;
}

/** A chunk's rows as the file's text: CSV lines, or JSON objects separated by commas. */
function render(row: ExportRow, sectionIndex: number, rows: { id: number }[]): string {
  const section = SECTIONS[sectionIndex];
  if (!section) throw new Error(`no section ${sectionIndex}`);
  const range = rangeOf(row);
  if (row.format === 'csv') return rows.map((r) => csvLine(section.cells(r, range))).join('');
  const columns = FILE_COLUMNS[section.file];
  return rows
    .map((r) => JSON.stringify(Object.fromEntries(section.cells(r, range).map((cell, i) => [columns[i], cell]))))
    .join(',\n');
}

async function chunk(deps: ExportsDeps, row: ExportRow): Promise<StepResult> {
  const section = SECTIONS[row.section];
  if (!section) throw new Error(`no section ${row.section}`);
  const rows = await section.page(deps.repo.sql, rangeOf(row), row.cursor, deps.chunkRows);
  const last = rows.at(-1);
  // A short chunk ends its section: the next step starts the next one from its first row.
  const next =
    rows.length < deps.chunkRows
      ? { section: row.section + 1, cursor: 0 }
      : { section: row.section, cursor: Number(last?.id) };
  const moved = await immediate(deps.repo.db, async () => {
    if (!(await deps.repo.advance(row, { ...next, rows: rows.length }, deps.now()))) return false;
    if (rows.length > 0)
      await deps.repo.addPart(row.id, row.section, Number(rows[0]?.id), rows.length, render(row, row.section, rows));
    return true;
  });
  return moved ? 'chunk' : 'lost';
}

async function finish(deps: ExportsDeps, row: ExportRow): Promise<StepResult> {
  const file = await writeExportFile(deps, row);
  const at = deps.now();
  try {
    const ready = await immediate(deps.repo.db, async () => {
      if (!(await deps.repo.finish(row.id, row.section, file.size, at, at + deps.keepMs))) return false;
      // Only the run that made the export ready puts its file in place, before the commit: a run that
      // lost (its chunks may have been dropped while it read them) never replaces the good file, and
      // a commit that fails leaves the export building, to be written again.
      await deps.storage.publish(file.temporary, file.path);
      await deps.repo.dropParts(row.id);
      await deps.notify(systemContext('exports'), {
        userId: row.userId,
        type: 'export_ready',
        link: '/settings#export',
        message: {
          key: 'export_ready',
          params: { format: row.format.toUpperCase(), from: row.fromDate, to: row.toDate },
        },
      });
      return true;
    });
    return ready ? 'ready' : 'lost';
  } finally {
    await deps.storage.discard(file.temporary);
  }
}

/** One step of `row`'s build; 'lost' when another process moved it first (nothing was written). */
export async function buildStep(deps: ExportsDeps, row: ExportRow): Promise<StepResult> {
  if (row.status === 'queued') {
    return (await deps.repo.start(row.id, await countRows(deps, row), deps.now())) ? 'started' : 'lost';
  }
  return row.section < SECTIONS.length ? chunk(deps, row) : finish(deps, row);
}
