// Translators' helper: `node scripts/i18n-missing.ts <locale>` prints, as JSON, the English
// messages that locale lacks; `node scripts/i18n-missing.ts <locale> --merge <file.json>` adds the
// translations in that file (keys of en.json only) and writes the catalogue back in en.json's key
// order. tests/unit/locales.test.ts checks every key and placeholder afterwards.
import { readFileSync, writeFileSync } from 'node:fs';

const [locale, flag, file] = process.argv.slice(2);
const path = (name: string) => new URL(`../locales/${name}.json`, import.meta.url);
const read = (name: string) => JSON.parse(readFileSync(path(name), 'utf8')) as Record<string, string>;

if (!locale || locale === 'en') {
  console.error('usage: node scripts/i18n-missing.ts <locale> [--merge <translations.json>]');
  process.exit(2);
}
const en = read('en');
const target = read(locale);

if (flag === '--merge' && file) {
  const additions = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const unknown = Object.keys(additions).filter((key) => !(key in en));
  if (unknown.length > 0) {
    console.error(`not in en.json: ${unknown.join(', ')}`);
    process.exit(1);
  }
  const merged = { ...target, ...additions };
  const ordered = Object.fromEntries(
    [...Object.keys(en), ...Object.keys(merged).filter((k) => !(k in en))]
      .filter((key) => key in merged)
      .map((key) => [key, merged[key]]),
  );
  writeFileSync(path(locale), `${JSON.stringify(ordered, null, 2)}\n`);
  console.log(`${locale}: ${Object.keys(additions).length} messages merged`);
} else {
  const missing = Object.fromEntries(Object.entries(en).filter(([key]) => !(key in target)));
  console.log(JSON.stringify(missing, null, 2));
}
