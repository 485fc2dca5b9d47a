import { isLocale } from '../../../src/lib/shared/i18n/locales.ts';
import { type MessageKey, translate } from '../../../src/lib/shared/i18n/messages.ts';
import type { ExportRow } from './repository.ts';
import { EXPORT_FILES, FILE_COLUMNS } from './sections.ts';

// README.txt of a CSV export, in the language the person used when they asked for it: who and
// what period, what each file holds with its columns, and how amounts, times and formula-looking
// cells are written.

export function readmeOf(row: ExportRow, at: number): string {
  const locale = isLocale(row.locale) ? row.locale : 'en';
  const t = (key: MessageKey, params?: Record<string, string>) => translate(locale, key, params);
  const lines = [
    t('exports.readme.title', { username: row.username }),
    '',
    t('exports.readme.period', { from: new Date(row.fromAt).toISOString(), to: new Date(row.toAt).toISOString() }),
    t('exports.readme.created', { at: new Date(at).toISOString() }),
    '',
    ...EXPORT_FILES.flatMap((file) => [
      `${file}.csv: ${t(`exports.readme.${file}` as MessageKey)}`,
      `  ${FILE_COLUMNS[file].join(', ')}`,
    ]),
    '',
    t('exports.readme.amounts'),
    t('exports.readme.times'),
    t('exports.readme.formulas'),
    '',
  ];
  return lines.join('\r\n');
}
