import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ContentProblem, checkContent, contentDir, fieldName, formatReport } from '../../scripts/check-content.ts';
import { brokenLinkReason, pageCollections } from '../../src/content/schema.ts';
import { locales } from '../../src/lib/shared/i18n/locales.ts';
import { MAX_LEVEL } from '../../src/lib/shared/verification-rules.ts';

// The marketing pages' content (src/content/<page>/<language>.yaml) and the check that guards it
// (scripts/check-content.ts, run by `npm run check:content` and first thing in the build).

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'content');
const report = checkContent(contentDir);

describe('the content in src/content', () => {
  it('has one folder per page and one file per language in each, nothing else', () => {
    for (const collection of pageCollections) {
      expect(readdirSync(join(contentDir, collection)).sort()).toEqual(locales.map((l) => `${l}.yaml`).sort());
    }
    expect(report.files).toBe(pageCollections.length * locales.length);
  });

  describe.each(pageCollections)('%s', (collection) => {
    it.each(locales)('%s validates', (locale) => {
      const mine = report.errors.filter((e) => e.file === `src/content/${collection}/${locale}.yaml`);
      expect(mine).toEqual([]);
    });
  });

  it('has no errors at all (folders, file names, cross-language rules)', () => {
    expect(report.errors).toEqual([]);
  });

  it('declares English fallbacks only for the proof-of-address examples, in every other language', () => {
    expect(report.fallbacks).toEqual([{ collection: 'proof-of-address', locales: locales.filter((l) => l !== 'en') }]);
  });

  it('says so in the report the build prints', () => {
    const text = formatReport(report);
    expect(text).toContain('ENGLISH FALLBACK');
    expect(text).toMatch(/proof-of-address: ca, da, de, .* \(18 languages\)/);
    expect(text).toContain('content: no errors');
  });
});

describe('links written in content', () => {
  it.each(['/', '/fees', '/peer-to-peer-map#levels', '/register?vendor=1', '/buy-bitcoin', '/buy-bitcoin/sepa/eur'])(
    '%s leads to a page',
    (href) => expect(brokenLinkReason(href)).toBeUndefined(),
  );

  it.each([
    ['/fee', 'no page at /fee'],
    ['/de/fees', 'without the language'],
    ['fees', 'must start with /'],
    ['https://example.com', 'must start with /'],
    ['/press/missing.svg', 'no page'],
  ])('%s is refused: %s', (href, reason) => expect(brokenLinkReason(href)).toContain(reason));

  it('names list positions like an editor counts them in the file', () => {
    expect(fieldName(['accepted', 'items', 1, 'image', 'alt'])).toBe('accepted.items[1].image.alt');
  });
});

describe('a deliberately broken entry fails the check with its file and field', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of src/content with the fixture's files laid over it (the real content is never touched). */
  function withFixture(name: string | undefined, change?: (dir: string) => void): string {
    const dir = mkdtempSync(join(tmpdir(), 'coinfair-content-'));
    copies.push(dir);
    cpSync(contentDir, dir, { recursive: true });
    if (name) cpSync(join(fixtures, name), dir, { recursive: true });
    change?.(dir);
    return dir;
  }

  const problems = (dir: string) =>
    checkContent(dir).errors.map((e: ContentProblem) => ({ ...e, file: e.file.slice(dir.length + 1) }));

  it('a testimonial without its quote', () => {
    expect(problems(withFixture('missing-field'))).toEqual([
      { file: 'testimonials/de.yaml', field: 'items[1].quote', message: 'is missing (required)' },
    ]);
  });

  it('a link to a page that does not exist', () => {
    expect(problems(withFixture('broken-link'))).toEqual([
      {
        file: 'support/fr.yaml',
        field: 'links[0].href',
        message: 'broken link "/fee": no page at /fee (is it spelled right?)',
      },
    ]);
  });

  it('an image without alt text', () => {
    expect(problems(withFixture('image-without-alt'))).toEqual([
      {
        file: 'proof-of-address/en.yaml',
        field: 'accepted.items[1].image.alt',
        message: 'is missing: every image needs alt text that says what it shows',
      },
    ]);
  });

  it('press coverage on a reserved example site (decision 130); a real address passes', () => {
    const withArticle = (url: string) =>
      withFixture(undefined, (d) => {
        const file = join(d, 'media', 'en.yaml');
        const item = `  items:\n    - outlet: Some Paper\n      date: "2026-11-20"\n      url: ${url}\n      headline: Coinfair\n`;
        writeFileSync(file, readFileSync(file, 'utf8').replace('\nkit:\n', `\n${item}kit:\n`));
      });
    expect(problems(withArticle('https://ledgerweekly.example/coinfair-escrow'))).toEqual([
      {
        file: 'media/en.yaml',
        field: 'coverage.items[0].url',
        message: 'must be the address of a real article, not a reserved example domain',
      },
    ]);
    expect(problems(withArticle('https://www.newspaper.com/2026/11/coinfair'))).toEqual([]);
  });

  it('a misspelt field and a misspelt placeholder', () => {
    expect(problems(withFixture('misspelt-field'))).toEqual([
      { file: 'levels/pl.yaml', field: 'items[0].summary', message: 'is missing (required)' },
      {
        file: 'levels/pl.yaml',
        field: 'items[0].sumary',
        message: 'is not a field of this page (misspelt, or in the wrong place?)',
      },
    ]);
    // With the field fixed, the placeholder is the next thing it names.
    const dir = withFixture('misspelt-field', (d) => {
      const file = join(d, 'levels', 'pl.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('sumary:', 'summary:'));
    });
    expect(problems(dir)).toEqual([
      {
        file: 'levels/pl.yaml',
        field: 'level',
        message: 'unknown placeholder {number} and misses {n} (it must contain {n}; the page fills it in)',
      },
    ]);
  });

  it('peer levels that are not the verification ladder: a level missing, a limit written in the file', () => {
    const dir = withFixture(undefined, (d) => {
      const sv = join(d, 'levels', 'sv.yaml');
      const source = readFileSync(sv, 'utf8');
      writeFileSync(sv, source.slice(0, source.lastIndexOf('  - name:')));
      const de = join(d, 'levels', 'de.yaml');
      writeFileSync(
        de,
        readFileSync(de, 'utf8').replace('    icon: mail\n', '    icon: mail\n    dailyLimitUsd: 1000\n'),
      );
    });
    expect(problems(dir)).toEqual([
      {
        file: 'levels/de.yaml',
        field: 'items[0].dailyLimitUsd',
        message: 'is not a field of this page (misspelt, or in the wrong place?)',
      },
      {
        file: 'levels/sv.yaml',
        field: 'items',
        message: `lists ${MAX_LEVEL - 1} levels; the product has ${MAX_LEVEL} (src/lib/shared/verification-rules.ts): write one item per level, level 1 first`,
      },
    ]);
  });

  it('a country written out instead of its code, and a code that is no country', () => {
    const dir = withFixture(undefined, (d) => {
      const file = join(d, 'testimonials', 'it.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('country: NG', 'country: Nigeria').replace('country: BR', 'country: XX'),
      );
    });
    expect(problems(dir)).toEqual([
      {
        file: 'testimonials/it.yaml',
        field: 'items[0].country',
        message: 'must be a two-letter country code in capitals, such as NG or BR',
      },
      { file: 'testimonials/it.yaml', field: 'items[1].country', message: 'is not a country code (NG, BR, IN, GB…)' },
    ]);
  });

  it('a language without its file (neither translated nor declared as an English fallback)', () => {
    const dir = withFixture(undefined, (d) => rmSync(join(d, 'about', 'ja.yaml')));
    expect(problems(dir)).toEqual([
      {
        file: 'about/ja.yaml',
        field: '(file)',
        message:
          'is missing: add the translated page, or a file that says `fallback: en` to show English until it is translated',
      },
    ]);
  });

  it('stops `npm run check:content` (exit 1) with the file and field in its output', () => {
    const dir = withFixture('broken-link');
    let output = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [join(root, 'scripts', 'check-content.ts')], {
        env: { ...process.env, CONTENT_DIR: dir },
        stdio: 'pipe',
        encoding: 'utf8',
      });
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      status = failed.status;
      output = failed.stderr;
    }
    expect(status).toBe(1);
    expect(output).toContain(`${dir}/support/fr.yaml  links[0].href: broken link "/fee"`);
  });
});
