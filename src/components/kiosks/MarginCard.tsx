import { type SubmitEvent, useState } from 'react';
import { formatPercent } from '../../lib/shared/format.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { KioskView } from '../../lib/shared/views/kiosks.ts';
import { Field, fieldAria } from '../form-field.tsx';
import { formErrors, kioskApi } from './api.ts';
import type { Announce, T } from './types.ts';
import { type Outcome, OutcomeLine } from './ui.tsx';

// The margin the kiosk adds to the market price of every sale: 0 to 20 %, two decimals at most.

interface Props {
  t: T;
  locale: Locale;
  lang: string;
  marginPercent: string;
  onView(view: KioskView): void;
  announce: Announce;
}

/** "3.00" → "3", "2.50" → "2.5" (German "2,5"): the margin as a person types it. */
function typed(percent: string, lang: string): string {
  const short = percent.includes('.') ? percent.replace(/\.?0+$/, '') : percent;
  const decimal = new Intl.NumberFormat(lang).formatToParts(1.5).find((part) => part.type === 'decimal')?.value;
  return (short || '0').replace('.', decimal ?? '.');
}

export function MarginCard({ t, locale, lang, marginPercent, onView, announce }: Props) {
  const [value, setValue] = useState(typed(marginPercent, lang));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setOutcome(null);
    const text = value.trim().replace(',', '.');
    const number = Number(text);
    if (!/^\d+(\.\d{1,2})?$/.test(text) || number > 20) {
      setError(t('errors.kiosk_margin_range'));
      return;
    }
    setError(undefined);
    setBusy(true);
    const answer = await kioskApi.margin(locale, text);
    setBusy(false);
    if (answer.ok && answer.data) {
      onView(answer.data);
      setValue(typed(answer.data.marginPercent, lang));
      const done = t('kiosk.margin.done', { margin: formatPercent(Number(answer.data.marginPercent), lang) });
      setOutcome({ kind: 'done', text: done });
      announce(done);
      return;
    }
    const found = formErrors(answer, ['marginPercent'], t('kiosk.margin.failed'));
    setError(found.fields.marginPercent);
    if (found.summary) setOutcome({ kind: 'error', text: found.summary });
  };

  return (
    <section className="card kiosk-card kiosk-margin" aria-labelledby="kiosk-margin-title" data-testid="kiosk-margin">
      <h2 className="h3" id="kiosk-margin-title">
        {t('kiosk.margin.title')}
      </h2>
      <p className="kiosk-amount" data-testid="kiosk-margin-current">
        {formatPercent(Number(marginPercent), lang)}
      </p>
      <p className="muted kiosk-hint">{t('kiosk.margin.lead')}</p>
      <form className="kiosk-form" noValidate onSubmit={submit}>
        <Field id="kiosk-margin-input" label={t('kiosk.margin.label')} hint={t('kiosk.margin.hint')} error={error}>
          <div className="kiosk-suffixed">
            <input
              className="input"
              {...fieldAria('kiosk-margin-input', error, true)}
              inputMode="decimal"
              autoComplete="off"
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
            <span className="kiosk-suffix" aria-hidden="true">
              %
            </span>
          </div>
        </Field>
        <button type="submit" className="btn btn-secondary" disabled={busy} aria-busy={busy || undefined}>
          {t(busy ? 'kiosk.margin.busy' : 'kiosk.margin.action')}
        </button>
        <OutcomeLine outcome={outcome} testId="kiosk-margin" />
      </form>
    </section>
  );
}
