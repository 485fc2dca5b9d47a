// `npm run check:content`: validates every page's content (src/content/<page>/<language>.yaml)
// before anyone sees it, and prints the report the build prints too (scripts/build.ts runs this
// first and stops on an error). Each error names the file and the field:
//
//   src/content/home/de.yaml  hero.primary.href: broken link "/regster": no page at /regster
//
// Rules (docs/decisions/055-marketing-pages-as-content.md, 2026-11-24 "Marketing pages as content"): every page has a file for
// each of the 19 languages; English is always complete; another language is either translated
// completely or declares `fallback: en`, which shows the English text and is listed in the report.
// The same schemas (src/content/schema.ts) validate the collections inside Astro's build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'astro/zod';
import {
  fallbackSchema,
  type PageCollection,
  pageCollections,
  pageSchemas,
  placeholders,
} from '../src/content/schema.ts';
import { defaultLocale, locales } from '../src/lib/shared/i18n/locales.ts';
import { MAX_LEVEL } from '../src/lib/shared/verification-rules.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** src/content, or CONTENT_DIR (a copy, as src/content.config.ts reads it too: the content tests). */
export const contentDir = process.env.CONTENT_DIR ? resolve(process.env.CONTENT_DIR) : join(root, 'src', 'content');

// The YAML parser Astro's own data loader uses, so both read a file the same way.
const yaml = createRequire(join(root, 'node_modules', 'astro', 'package.json'))('js-yaml') as {
  load(source: string, options?: { filename?: string }): unknown;
};

export interface ContentProblem {
  /** The file, as a path from the repository (or absolute outside it). */
  file: string;
  /** The field inside it, such as `items[2].quote`; `(file)` when the file itself is the problem. */
  field: string;
  message: string;
}

export interface ContentReport {
  /** How many pages were checked, and how many files in all. */
  pages: number;
  files: number;
  errors: ContentProblem[];
  /** Pages that show English in some languages, declared with `fallback: en`. */
  fallbacks: { collection: PageCollection; locales: string[] }[];
  /** Worth a look, never an error: a translated list that is shorter or longer than English. */
  notes: string[];
}

type Issue = z.core.$ZodIssue;

/** `['items', 2, 'quote']` → `items[2].quote`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return (
    path.reduce<string>(
      (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
      '',
    ) || '(whole file)'
  );
}

const kinds: Record<string, string> = {
  string: 'text',
  number: 'a number',
  array: 'a list (lines starting with "- ")',
  object: 'a group of fields',
  date: 'a date',
  boolean: 'true or false',
};

/** Zod's issue in words an editor can act on. */
function describe(issue: Issue): { path: PropertyKey[]; message: string }[] {
  const path = [...issue.path];
  switch (issue.code) {
    case 'invalid_type': {
      // A schema's own words (image alt text) stand; Zod's defaults are said plainly.
      if (!issue.message.startsWith('Invalid input')) return [{ path, message: issue.message }];
      const missing = /received undefined/.test(issue.message);
      return [
        {
          path,
          message: missing ? 'is missing (required)' : `should be ${kinds[issue.expected] ?? issue.expected}`,
        },
      ];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: [...path, key],
        message: 'is not a field of this page (misspelt, or in the wrong place?)',
      }));
    case 'invalid_union': {
      const branches = issue.errors.flat();
      const best = branches.find((b) => b.code !== 'invalid_type') ?? branches[0];
      return best ? describe({ ...best, path: [...path, ...best.path] } as Issue) : [{ path, message: issue.message }];
    }
    case 'too_small':
      return [{ path, message: issue.origin === 'array' ? 'needs at least one item' : issue.message }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** Every text in an entry with its field path, for the placeholder rule. */
function* texts(value: unknown, path: PropertyKey[] = []): Generator<[PropertyKey[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* texts(item, [...path, i]);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* texts(item, [...path, key]);
  }
}

const placeholderRule = (collection: PageCollection, path: PropertyKey[]) =>
  placeholders[collection]?.[path.map((p) => (typeof p === 'number' ? '*' : String(p))).join('.')] ?? [];

type ErrorSink = (file: string, field: string, message: string) => void;

/** A folder under the content directory that is no page. */
function checkFolders(dir: string, error: ErrorSink): void {
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (statSync(join(dir, name)).isDirectory() && !(pageCollections as readonly string[]).includes(name)) {
      error(join(dir, name), '(folder)', `is not a page with content; the pages are: ${pageCollections.join(', ')}`);
    }
  }
}

/** A file in a page's folder that is not named after a language. */
function checkFileNames(folder: string, error: ErrorSink): void {
  const names = existsSync(folder) ? readdirSync(folder) : [];
  for (const name of names) {
    const locale = name.replace(/\.yaml$/, '');
    if (!name.endsWith('.yaml') || !(locales as readonly string[]).includes(locale)) {
      error(
        join(folder, name),
        '(file)',
        `is not a language file: name files after the language (${locales.join('.yaml, ')}.yaml)`,
      );
    }
  }
}

/** The file's YAML, or undefined (and an error) when it cannot be read. */
function readYaml(file: string, error: ErrorSink): { data: unknown } | undefined {
  try {
    return { data: yaml.load(readFileSync(file, 'utf8'), { filename: file }) };
  } catch (e) {
    const mark = (e as { mark?: { line: number; column: number } }).mark;
    const where = mark ? `line ${mark.line + 1}, column ${mark.column + 1}` : '(YAML)';
    const reason = (e as { reason?: string }).reason ?? String(e);
    error(
      file,
      where,
      `cannot be read: ${reason} (a text with ": " or starting with a quote needs "double quotes" around it)`,
    );
    return undefined;
  }
}

function reportIssues(file: string, issues: readonly Issue[], error: ErrorSink): void {
  for (const issue of issues) {
    for (const { path, message } of describe(issue)) error(file, fieldName(path), message);
  }
}

/** Every text carries exactly the placeholders its field takes. */
function checkPlaceholders(collection: PageCollection, file: string, data: unknown, error: ErrorSink): void {
  for (const [path, value] of texts(data)) {
    const expected = placeholderRule(collection, path);
    const found = [...value.matchAll(/\{(\w*)\}/g)].map((m) => m[1] as string);
    const unknown = found.filter((p) => !expected.includes(p));
    const missing = expected.filter((p) => !found.includes(p));
    if (unknown.length > 0 || missing.length > 0) {
      const list = (names: string[]) => names.map((p) => `{${p}}`).join(', ');
      const wrong = [
        unknown.length > 0 ? `unknown placeholder ${list(unknown)}` : '',
        missing.length > 0 ? `misses ${list(missing)}` : '',
      ].filter(Boolean);
      const allowed = expected.length > 0 ? `it must contain ${list([...expected])}` : 'it takes none';
      error(file, fieldName(path), `${wrong.join(' and ')} (${allowed}; the page fills it in)`);
    }
  }
}

/** One language file that exists: `fallback` when it declares one, its parsed entry when valid, else undefined. */
function checkFile(
  collection: PageCollection,
  locale: string,
  file: string,
  error: ErrorSink,
): 'fallback' | { data: unknown } | undefined {
  const read = readYaml(file, error);
  if (!read) return undefined;
  const { data } = read;
  if (data && typeof data === 'object' && 'fallback' in data) {
    if (locale === defaultLocale) {
      error(file, 'fallback', 'English is what other languages fall back to: write the page itself here');
      return undefined;
    }
    const marker = fallbackSchema.safeParse(data);
    if (!marker.success) {
      reportIssues(file, marker.error.issues, error);
      return undefined;
    }
    return 'fallback';
  }

  const parsed = pageSchemas[collection].safeParse(data);
  if (!parsed.success) {
    reportIssues(file, parsed.error.issues, error);
    return undefined;
  }
  checkPlaceholders(collection, file, parsed.data, error);
  return { data: parsed.data };
}

/**
 * Checks the content under `dir` (default src/content): every collection (or `only` these), every
 * language. Reads files and returns the report; `formatReport` puts it in words.
 */
export function checkContent(
  dir: string = contentDir,
  only: readonly PageCollection[] = pageCollections,
): ContentReport {
  const shown = (path: string) => {
    const rel = relative(root, path);
    return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
  };
  const report: ContentReport = { pages: only.length, files: 0, errors: [], fallbacks: [], notes: [] };
  const error: ErrorSink = (file, field, message) => {
    report.errors.push({ file: shown(file), field, message });
  };

  checkFolders(dir, error);
  for (const collection of only) {
    const folder = join(dir, collection);
    checkFileNames(folder, error);

    const entries = new Map<string, unknown>();
    const fallbacks: string[] = [];
    for (const locale of locales) {
      const file = join(folder, `${locale}.yaml`);
      if (!existsSync(file)) {
        error(
          file,
          '(file)',
          locale === defaultLocale
            ? 'is missing: every page needs its English content'
            : 'is missing: add the translated page, or a file that says `fallback: en` to show English until it is translated',
        );
        continue;
      }
      report.files++;
      const result = checkFile(collection, locale, file, error);
      if (result === 'fallback') fallbacks.push(locale);
      else if (result) entries.set(locale, result.data);
    }

    if (fallbacks.length > 0) report.fallbacks.push({ collection, locales: fallbacks });
    crossCheck(collection, entries, (locale, field, message) =>
      error(join(folder, `${locale}.yaml`), field, message),
    ).forEach((note) => {
      report.notes.push(note);
    });
  }
  return report;
}

/** Rules over all of a page's languages: the peer levels against the product, and lists worth a second look. */
function crossCheck(
  collection: PageCollection,
  entries: Map<string, unknown>,
  error: (locale: string, field: string, message: string) => void,
): string[] {
  // Peer levels are the verification ladder (src/lib/shared/verification-rules.ts): one item per level in
  // every language, English included; the page takes each level's limit from there.
  if (collection === 'levels') {
    for (const [locale, data] of entries) {
      const { items } = data as { items: unknown[] };
      if (items.length !== MAX_LEVEL) {
        error(
          locale,
          'items',
          `lists ${items.length} levels; the product has ${MAX_LEVEL} (src/lib/shared/verification-rules.ts): write one item per level, level 1 first`,
        );
      }
    }
  }
  const en = entries.get(defaultLocale) as Record<string, unknown> | undefined;
  if (!en) return [];
  const notes: string[] = [];
  const lists: Partial<Record<PageCollection, string[]>> = {
    testimonials: ['items'],
    media: ['coverage.items'],
    support: ['faq.items', 'links'],
    terms: ['sections'],
    privacy: ['sections'],
  };
  const at = (data: unknown, path: string) =>
    path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], data);
  for (const [locale, data] of entries) {
    if (locale === defaultLocale) continue;
    for (const path of lists[collection] ?? []) {
      const mine = at(data, path);
      const theirs = at(en, path);
      if (Array.isArray(mine) && Array.isArray(theirs) && mine.length !== theirs.length) {
        notes.push(`${collection}/${locale}.yaml: ${path} has ${mine.length} items, English has ${theirs.length}`);
      }
    }
  }
  return notes;
}

/** The report as the build and `npm run check:content` print it. */
export function formatReport(report: ContentReport): string {
  const lines = [`content: ${report.files} files checked (${report.pages} pages × ${locales.length} languages)`];
  if (report.fallbacks.length > 0) {
    lines.push('content: ENGLISH FALLBACK — these pages show English in these languages (declared `fallback: en`):');
    for (const { collection, locales: shown } of report.fallbacks) {
      lines.push(`  ${collection}: ${shown.join(', ')} (${shown.length} languages)`);
    }
  }
  for (const note of report.notes) lines.push(`content: note: ${note}`);
  if (report.errors.length === 0) {
    lines.push('content: no errors');
  } else {
    lines.push(`content: ${report.errors.length} error${report.errors.length === 1 ? '' : 's'}:`);
    for (const e of report.errors) lines.push(`  ${e.file}  ${e.field}: ${e.message}`);
    lines.push('content: how to fix: docs/editing-content.md');
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = checkContent(process.argv[2] ?? contentDir);
  const text = formatReport(report);
  if (report.errors.length > 0) {
    console.error(text);
    process.exit(1);
  }
  console.log(text);
}
