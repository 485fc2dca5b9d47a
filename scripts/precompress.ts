// Brotli and gzip variants of every text asset in the build (neither Astro nor the node adapter
// compresses responses; server/http/static-files.ts serves these). Brotli's best quality is what
// costs: 23 s of one core for the 20 MB of text, where quality 5 takes 1 s for 9 % more bytes.
// So:
// - `npm run build` compresses at the best quality (11; 9 for files over 1 MB, where 11 takes 9 s
//   on the 4.8 MB API reference viewer for little gain);
// - the build `npm start` makes on a fresh clone compresses nothing until the server listens,
//   then everything at `fast` (quality 5), so a newcomer's first page comes in seconds;
//   `npm run build` before deploying gives the best;
// - every variant is kept in node_modules/.cache/coinfair-precompress under the hash of its input
//   and quality, so a rebuild compresses only what changed (Astro's hashed assets rarely do); what
//   no build used for two weeks is removed.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// Not .html: a page's variants are made by the server once its origin is in (static-files.ts, decision 141).
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
const LARGE_FILE_BYTES = 1_000_000;
const KEPT_UNUSED_MS = 14 * 86_400_000;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type PrecompressEffort = 'best' | 'fast';

/** Where variants are kept between builds; COINFAIR_PRECOMPRESS_CACHE moves it (the bench's fresh start uses an empty one). */
export const precompressCacheDir = (root: string) =>
  process.env.COINFAIR_PRECOMPRESS_CACHE ?? join(root, 'node_modules/.cache/coinfair-precompress');

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const brotliQuality = (size: number, effort: PrecompressEffort) =>
  effort === 'fast' ? 5 : size > LARGE_FILE_BYTES ? 9 : 11;

/** `compute`'s bytes, from the cache when an earlier build made them from the same input. */
async function cached(cacheDir: string, key: string, compute: () => Promise<Buffer>): Promise<Buffer> {
  const path = join(cacheDir, key);
  if (existsSync(path)) {
    const now = new Date();
    utimesSync(path, now, now);
    return readFileSync(path);
  }
  const bytes = await compute();
  // Two builds at once never read half a file.
  writeWhole(path, bytes);
  return bytes;
}

/** Written aside and renamed, so a reader sees no file or all of it. */
function writeWhole(path: string, bytes: Buffer): void {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
}

/** Both variants of one file, each kept only when smaller than the file. */
async function compress(file: string, effort: PrecompressEffort, cacheDir: string): Promise<void> {
  const raw = readFileSync(file);
  const hash = createHash('sha256').update(raw).digest('base64url');
  const quality = brotliQuality(raw.length, effort);
  const [br, gz] = await Promise.all([
    cached(cacheDir, `${hash}.q${quality}.br`, () =>
      brotli(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
    ),
    cached(cacheDir, `${hash}.gz`, () => gzipAsync(raw, { level: 9 })),
  ]);
  // Renamed into place: a server already answering (a first start's) never reads half a variant.
  if (br.length < raw.length) writeWhole(`${file}.br`, br);
  if (gz.length < raw.length) writeWhole(`${file}.gz`, gz);
}

/** Compresses the text files under `dir` on libuv's thread pool, a few at a time: every core works. */
export async function precompress(dir: string, effort: PrecompressEffort, cacheDir: string): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  const queue = [...files(dir)].filter((file) => COMPRESSIBLE.has(extname(file)));
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) await compress(file, effort, cacheDir);
    }),
  );
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (Date.now() - statSync(path).mtimeMs > KEPT_UNUSED_MS) rmSync(path, { force: true });
  }
}
