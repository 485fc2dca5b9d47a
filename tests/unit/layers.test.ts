import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breaches, functionLengths, moduleLines, regressions } from '../../scripts/check-sizes.ts';

// Issue 26: the layers hold by a rule in `npm run check` (biome.json, noRestrictedImports), not by
// reviews; and the size check fails on what is new or grown past the goal.

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');

/** Lints a probe module placed in `folder` (removed afterwards); the restricted-import findings. */
function restrictedImports(folder: string, source: string): number {
  const file = join(root, folder, `zz-layer-probe-${randomUUID()}.ts`);
  // The folder's times are put back afterwards: a changed folder makes the build look older than
  // the sources (scripts/build-freshness.ts), and `npm start` in the browser tests would rebuild
  // under the other tests' feet.
  const { atime, mtime } = statSync(join(root, folder));
  writeFileSync(file, source);
  try {
    const out = execFileSync(biome, ['lint', '--max-diagnostics=50', file], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return (out.match(/noRestrictedImports/g) ?? []).length;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return (`${stdout}${stderr}`.match(/noRestrictedImports/g) ?? []).length;
  } finally {
    rmSync(file, { force: true });
    utimesSync(join(root, folder), atime, mtime);
  }
}

// Each probe runs Biome, whose type-aware rules (floating promises) read the modules a probe
// imports: seconds, not milliseconds, on a loaded machine.
describe('layers', { timeout: 30_000 }, () => {
  it('a route may not import the database', () => {
    expect(
      restrictedImports(
        'server/routes',
        "import { openDatabase } from '../../db/client.ts';\n\nexport const x = openDatabase;\n",
      ),
    ).toBe(1);
  });

  it('a service may not import HTTP or Hono', () => {
    const source =
      "import { Hono } from 'hono';\nimport { requireAuth } from '../../http/auth.ts';\n\nexport const x = [Hono, requireAuth];\n";
    expect(restrictedImports('server/services/offers', source)).toBe(2);
  });

  it('browser code may not import server code', () => {
    expect(
      restrictedImports(
        'src/components/wallet',
        "import { createApp } from '../../../server/app.ts';\n\nexport const x = createApp;\n",
      ),
    ).toBe(1);
  });

  it('server code imports from src/ only the shared helpers', () => {
    const source =
      "import { apiGet } from '../src/lib/api-client.ts';\nimport { roundDecimal } from '../src/lib/shared/money.ts';\n\nexport const x = [apiGet, roundDecimal];\n";
    expect(restrictedImports('server', source)).toBe(1);
  });
});

describe('sizes', () => {
  it('counts a module without blank lines and an .astro file without its scoped CSS', () => {
    expect(moduleLines('a.ts', 'const a = 1;\n\n\nconst b = 2;\n')).toBe(2);
    expect(moduleLines('a.astro', '---\nconst a = 1;\n---\n<p>{a}</p>\n<style>\np { color: red; }\n</style>\n')).toBe(
      4,
    );
  });

  it('measures every kind of function, factory closures included', () => {
    const source = `export function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return { method() {\n    return inner();\n  } };\n}\n`;
    const found = functionLengths('a.ts', source).map((f) => [f.name, f.lines]);
    expect(found).toEqual([
      ['outer', 8],
      ['inner', 3],
      ['method', 3],
    ]);
  });

  it('fails on what is new over the goal or grew, and lets the listed shrink', () => {
    const current = breaches({
      modules: [{ file: 'big.ts', name: 'big.ts', lines: 420 }],
      functions: [
        { file: 'a.ts', name: 'long', lines: 90 },
        { file: 'a.ts', name: 'short', lines: 10 },
      ],
    });
    expect(current).toEqual({ 'big.ts': 420, 'a.ts long()': 90 });
    expect(regressions(current, { 'big.ts': 500, 'a.ts long()': 90 })).toEqual([]);
    expect(regressions(current, { 'big.ts': 410 })).toEqual(['big.ts: 420 lines (was 410)', 'a.ts long(): 90 lines']);
  });
});
