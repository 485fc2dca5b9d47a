// `npm run check` (issue 26): no source module over 400 lines, no function over 80, so a change
// stays reviewable and a file says one thing. Prints the largest of each. What was over the goal
// when the check came in is listed in scripts/size-baseline.json and may only shrink; anything
// new over the goal, or a listed one that grew, fails. `--write-baseline` records the current
// state (after a split, so the list gets shorter). Modules are counted without blank lines and,
// in .astro files, without their scoped <style>; functions (declarations, expressions, arrows,
// methods, factory closures included) from their first to their last line.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_MODULE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;
const ROOTS = ['server', 'src', 'db', 'scripts'];
// Reference data (cities, countries) is a table, not code.
const SKIP = /(^|\/)(node_modules|migrations|seed\/data)(\/|$)/;
const BASELINE = 'scripts/size-baseline.json';
const SOURCE = /\.(ts|tsx|astro)$/;

export interface Measure {
  file: string;
  name: string;
  lines: number;
}

function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SKIP.test(path)) return [];
    if (entry.isDirectory()) return sourceFiles(root, path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** An .astro file's scoped CSS does not count toward its size. */
const withoutScopedCss = (file: string, text: string): string =>
  file.endsWith('.astro') ? text.replace(/<style[\s\S]*?<\/style>/g, '') : text;

/** Lines that hold code: blank lines and an .astro file's scoped CSS left out. */
export function moduleLines(file: string, text: string): number {
  const code = withoutScopedCss(file, text);
  return code.split('\n').filter((line) => line.trim() !== '').length;
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

/** Every function of a TypeScript module (of an .astro file: its frontmatter), with its length. */
export function functionLengths(file: string, text: string): Measure[] {
  // An .astro file is not TypeScript as a whole; its frontmatter is.
  if (file.endsWith('.astro')) {
    const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1];
    return frontmatter === undefined ? [] : functionLengths(`${file}.frontmatter.ts`, frontmatter);
  }
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Measure[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: functionName(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function measure(root: string): { modules: Measure[]; functions: Measure[] } {
  const modules: Measure[] = [];
  const functions: Measure[] = [];
  for (const dir of ROOTS) {
    for (const file of sourceFiles(root, dir)) {
      const text = readFileSync(join(root, file), 'utf8');
      const name = relative('.', file);
      modules.push({ file: name, name, lines: moduleLines(file, text) });
      functions.push(...functionLengths(name, text));
    }
  }
  modules.sort((a, b) => b.lines - a.lines);
  functions.sort((a, b) => b.lines - a.lines);
  return { modules, functions };
}

/** What is over the goal, keyed `file` or `file name()`, with its size. */
export function breaches({ modules, functions }: ReturnType<typeof measure>): Record<string, number> {
  const over: Record<string, number> = {};
  for (const m of modules) if (m.lines > MAX_MODULE_LINES) over[m.file] = m.lines;
  for (const f of functions) {
    const key = `${f.file} ${f.name}()`;
    if (f.lines > MAX_FUNCTION_LINES) over[key] = Math.max(over[key] ?? 0, f.lines);
  }
  return over;
}

/** Breaches that are new or grew past the size the baseline allows them. */
export function regressions(current: Record<string, number>, baseline: Record<string, number>): string[] {
  return Object.entries(current)
    .filter(([key, lines]) => lines > (baseline[key] ?? 0))
    .map(([key, lines]) => `${key}: ${lines} lines${baseline[key] ? ` (was ${baseline[key]})` : ''}`);
}

if (import.meta.main) {
  const measured = measure(process.cwd());
  const current = breaches(measured);
  if (process.argv.includes('--write-baseline')) {
    const sorted = Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(BASELINE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
  console.log(`sizes: largest modules (goal ≤ ${MAX_MODULE_LINES} lines)`);
  for (const m of measured.modules.slice(0, 5)) console.log(`  ${String(m.lines).padStart(4)}  ${m.file}`);
  console.log(`sizes: longest functions (goal ≤ ${MAX_FUNCTION_LINES} lines)`);
  for (const f of measured.functions.slice(0, 5)) console.log(`  ${String(f.lines).padStart(4)}  ${f.file} ${f.name}`);
  const baseline: Record<string, number> = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, 'utf8')) : {};
  console.log(`sizes: ${Object.keys(current).length} over the goal, each held to its size in ${BASELINE}`);
  const worse = regressions(current, baseline);
  if (worse.length > 0) {
    console.error(`sizes: new or grown past the goal (split them):\n  ${worse.join('\n  ')}`);
    process.exit(1);
  }
}
