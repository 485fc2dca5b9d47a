import { type SubmitEvent, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat, type ExportView } from '../../lib/shared/exports.ts';
import { useSettings } from './context.ts';
import { StatementLinks } from './StatementLinks.tsx';
import { Field, FormAlert, fieldAria, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { useExports } from './use-exports.ts';

// "Export my data" (issue 24; docs/decisions/158-data-exports.md): a range of days and a format,
// then the person's exports with their progress while they are built, a download link while the
// file is valid, and the expired ones marked. `today` is the server's UTC day, so the first
// render in the browser matches the server's.

export function ExportSection({ initial, today }: { initial: ExportView[]; today: string }) {
  const { t } = useSettings();
  const state = useExports(initial);
  return (
    <SectionCard id="export" title={t('settings.export.title')} lead={t('settings.export.lead')}>
      <div className="stack">
        <RequestForm today={today} state={state} />
        <div className="stack-sm">
          <h3 className="subhead" id="export-list-title">
            {t('settings.export.listTitle')}
          </h3>
          {state.exports.length === 0 ? (
            <p className="muted">{t('settings.export.empty')}</p>
          ) : (
            <ul className="export-list" aria-labelledby="export-list-title">
              {state.exports.map((item) => (
                <ExportItem key={item.id} item={item} />
              ))}
            </ul>
          )}
        </div>
        <StatementLinks />
      </div>
    </SectionCard>
  );
}

function RequestForm({ today, state }: { today: string; state: ReturnType<typeof useExports> }) {
  const { t } = useSettings();
  const [from, setFrom] = useState(`${today.slice(0, 4)}-01-01`);
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const errors = state.failure.fields;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    await state.request({ format, from, to });
  };
  return (
    <form className="form export-form" onSubmit={submit} noValidate aria-label={t('settings.export.title')}>
      <FormAlert message={state.failure.summary} />
      <div className="export-days">
        <Field id="export-from" label={t('settings.export.from')} error={errors.from}>
          <input
            className="input"
            type="date"
            {...fieldAria('export-from', errors.from)}
            name="from"
            value={from}
            max={today}
            onChange={(e) => setFrom(e.target.value)}
            required
          />
        </Field>
        <Field id="export-to" label={t('settings.export.to')} error={errors.to}>
          <input
            className="input"
            type="date"
            {...fieldAria('export-to', errors.to)}
            name="to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            required
          />
        </Field>
      </div>
      <p className="field-hint">{t('settings.export.rangeHint')}</p>
      <fieldset className="fieldset">
        <legend className="field-label">{t('settings.export.format')}</legend>
        <div className="export-formats">
          {EXPORT_FORMATS.map((option) => (
            <label className="checkbox export-format" key={option}>
              <input
                type="radio"
                name="format"
                value={option}
                checked={format === option}
                onChange={() => setFormat(option)}
                aria-describedby={`export-format-${option}-hint`}
              />
              <span>
                <strong>{t(`settings.export.${option}`)}</strong>
                <span className="field-hint" id={`export-format-${option}-hint`}>
                  {t(`settings.export.${option}Hint`)}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="button-row">
        <SubmitButton busy={state.busy}>{t('settings.export.request')}</SubmitButton>
      </div>
      <StatusLine message={state.done} />
    </form>
  );
}

function ExportItem({ item }: { item: ExportView }) {
  const { t, lang } = useSettings();
  // Days are UTC days: shown as such on the server and in every browser alike.
  const day = (value: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`));
  const range = { from: day(item.from), to: day(item.to) };
  const titleId = `export-${item.id}-title`;
  const working = item.status === 'queued' || item.status === 'building';
  return (
    <li className="export-item" data-export-status={item.status}>
      <div className="export-main">
        <p className="export-title" id={titleId}>
          <span className="badge">{t(`settings.export.${item.format}`)}</span>{' '}
          <span>{t('settings.export.range', range)}</span>
        </p>
        <p className={`export-state${item.status === 'expired' || item.status === 'failed' ? ' muted' : ''}`}>
          {item.status === 'building'
            ? t('settings.export.building', { done: item.progress.done, total: item.progress.total })
            : t(`settings.export.${item.status}`)}
          {item.status === 'ready' && item.size !== null && (
            <>
              {' · '}
              <bdi>{sizeText(item.size, lang)}</bdi>
            </>
          )}
        </p>
        {working && (
          <progress
            className="export-progress"
            max={Math.max(item.progress.total, 1)}
            value={item.status === 'queued' ? 0 : item.progress.done}
            aria-label={t('settings.export.progressLabel', range)}
          />
        )}
        {item.status === 'ready' && item.expiresAt && (
          <p className="muted export-until">
            {t('settings.export.validUntil', { date: utcTime(item.expiresAt, lang) })}
          </p>
        )}
      </div>
      {item.status === 'ready' && item.downloadUrl && (
        <a className="btn btn-secondary" href={item.downloadUrl} download={item.fileName} aria-describedby={titleId}>
          {t('settings.export.download')}
        </a>
      )}
    </li>
  );
}

/** A moment in UTC, said so (the same text on the server and in every browser). */
function utcTime(iso: string, lang: string) {
  return new Intl.DateTimeFormat(lang, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** Bytes as kB or MB in the reader's language. */
function sizeText(bytes: number, lang: string) {
  const mega = bytes >= 1_000_000;
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: mega ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: 1,
  }).format(mega ? bytes / 1_000_000 : Math.max(bytes / 1000, 0.1));
}
