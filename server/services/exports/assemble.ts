import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Zip, ZipDeflate } from 'fflate';
import { CRYPTO_DECIMALS } from '../../../src/lib/shared/money.ts';
import { csvHead } from './csv.ts';
import type { ExportsDeps } from './deps.ts';
import { readmeOf } from './readme.ts';
import type { ExportRow } from './repository.ts';
import { EXPORT_FILES, type ExportFile, FILE_COLUMNS, sectionsOf } from './sections.ts';

// Writes an export's file from its stored chunks, streaming, so a large export never sits in
// memory whole: CSV → a ZIP with README.txt and one CSV per kind (fflate, deflated); JSON → one
// document with a header and one array per kind. Written under a temporary name, moved into place
// by build.ts only once its transaction has made the export ready.

const PARTS_AT_ONCE = 20;

/** Every stored chunk of `file`, in order. */
async function* bodiesOf(deps: ExportsDeps, row: ExportRow, file: ExportFile): AsyncGenerator<string> {
  for (const section of sectionsOf(file)) {
    let after = -1;
    for (;;) {
      const parts = await deps.repo.parts(row.id, section, after, PARTS_AT_ONCE);
      for (const part of parts) yield part.body;
      const last = parts.at(-1);
      if (!last || parts.length < PARTS_AT_ONCE) break;
      after = Number(last.firstId);
    }
  }
}

async function write(out: WriteStream, chunk: Uint8Array | string) {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function writeZip(deps: ExportsDeps, row: ExportRow, out: WriteStream, at: number) {
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else pending.push(data);
  });
  const flush = async () => {
    if (failure) throw failure;
    for (const data of pending.splice(0)) await write(out, data);
  };
  const encoder = new TextEncoder();
  const entry = async (name: string, texts: AsyncIterable<string> | Iterable<string>) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = at;
    zip.add(file);
    for await (const text of texts) {
      file.push(encoder.encode(text));
      await flush();
    }
    file.push(new Uint8Array(0), true);
    await flush();
  };
  await entry('README.txt', [readmeOf(row, at)]);
  for (const file of EXPORT_FILES) {
    const head = csvHead(FILE_COLUMNS[file]);
    await entry(
      `${file}.csv`,
      (async function* () {
        yield head;
        yield* bodiesOf(deps, row, file);
      })(),
    );
  }
  zip.end();
  await flush();
}

async function writeJson(deps: ExportsDeps, row: ExportRow, out: WriteStream, at: number) {
  const header = {
    type: 'coinfair.export',
    version: 1,
    account: { id: row.userPublicId, username: row.username },
    from: new Date(row.fromAt).toISOString(),
    to: new Date(row.toAt).toISOString(),
    createdAt: new Date(at).toISOString(),
    // Amounts are decimal strings with their currency's fixed decimals (fiat: its own minor units).
    amounts: { format: 'decimal-string', decimals: CRYPTO_DECIMALS },
  };
  await write(out, JSON.stringify(header).slice(0, -1));
  for (const file of EXPORT_FILES) {
    await write(out, `,\n${JSON.stringify(file)}:[\n`);
    let first = true;
    for await (const body of bodiesOf(deps, row, file)) {
      await write(out, first ? body : `,\n${body}`);
      first = false;
    }
    await write(out, '\n]');
  }
  await write(out, '}\n');
}

/** A written file under its temporary name, not yet in place (build.ts moves it once the export is its). */
export interface WrittenFile {
  temporary: string;
  path: string;
  size: number;
}

/** Writes the file under a temporary name; the caller publishes or discards it. */
export async function writeExportFile(deps: ExportsDeps, row: ExportRow): Promise<WrittenFile> {
  const at = deps.now();
  const { path, temporary } = await deps.storage.prepare(row.userPublicId, row.publicId, row.format);
  const out = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
  try {
    await (row.format === 'csv' ? writeZip : writeJson)(deps, row, out, at);
    out.end();
    await finished(out);
    return { temporary, path, size: out.bytesWritten };
  } catch (error) {
    out.destroy();
    await deps.storage.discard(temporary);
    throw error;
  }
}
