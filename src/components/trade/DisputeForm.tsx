import { useId, useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { type DisputeReasonOption, reasonsFor, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { type DisputeFormState, useDisputeForm } from './use-dispute-form.ts';
import { useDeadline, useServerClock } from './use-server-clock.ts';

// The dispute form (spec sections 3 and 7): once `dispute.available`, a reason of the reader's
// side and a text; before that, when it becomes available. When the wait ends by the server's
// clock the page asks the server for the trade (onDue), and the button appears without a reload.

export function DisputeForm({
  trade,
  reasons,
  t,
  lang,
  serverNow,
  onTrade,
  onDue,
}: {
  trade: TradeView;
  reasons: DisputeReasonOption[];
  t: T;
  lang: string;
  /** The server's time (unix ms) when it rendered the page. */
  serverNow: number;
  onTrade(trade: TradeView): void;
  /** The wait is over: reload the trade, whose `dispute.available` the server sets. */
  onDue(): void;
}) {
  const id = useId();
  const options = reasonsFor(reasons, trade.role);
  const [open, setOpen] = useState(false);
  const form = useDisputeForm(trade, t, onTrade);

  if (trade.role === 'moderator' || trade.status !== 'paid') return null;
  if (!trade.dispute.available) {
    if (trade.dispute.availableAt === null) return null;
    return (
      <DisputeLater availableAt={trade.dispute.availableAt} serverNow={serverNow} t={t} lang={lang} onDue={onDue} />
    );
  }
  if (!open) {
    return (
      <section className="trade-dispute card">
        <p>{t('trade.dispute.intro')}</p>
        <button type="button" className="btn btn-secondary" data-action="open-dispute" onClick={() => setOpen(true)}>
          {t('trade.dispute.open')}
        </button>
      </section>
    );
  }
  return <DisputeFields id={id} options={options} t={t} form={form} onBack={() => setOpen(false)} />;
}

interface LaterProps {
  /** Unix seconds. */
  availableAt: number;
  serverNow: number;
  t: T;
  lang: string;
  onDue(): void;
}

/**
 * When a dispute may be opened, in the reader's language and clock (UTC until hydrated: the server
 * knows no time zone, and both renders must agree); at that time, the trade is asked for again.
 */
function DisputeLater({ availableAt, serverNow, t, lang, onDue }: LaterProps) {
  const now = useServerClock(serverNow);
  useDeadline(availableAt, now, onDue);
  const hydrated = useHydrated();
  const when = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(hydrated ? {} : { timeZone: 'UTC' }),
  }).format(availableAt * 1000);
  return (
    <p className="trade-dispute-later muted" data-dispute-later>
      {t('trade.dispute.later', { time: when })}
    </p>
  );
}

function DisputeFields({
  id,
  options,
  t,
  form,
  onBack,
}: {
  id: string;
  options: DisputeReasonOption[];
  t: T;
  form: DisputeFormState;
  onBack(): void;
}) {
  return (
    <form className="trade-dispute card" onSubmit={form.submit} aria-labelledby={`${id}-title`} data-dispute-form>
      <h2 id={`${id}-title`} className="h4">
        {t('trade.dispute.title')}
      </h2>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t('trade.dispute.reason')}</label>
        <select
          id={`${id}-reason`}
          className="input"
          value={form.reason}
          onChange={(event) => form.setReason(event.target.value)}
        >
          <option value="">{t('trade.dispute.choose')}</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.title}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('trade.dispute.text')}</label>
        <textarea
          dir="auto"
          id={`${id}-text`}
          className="input"
          rows={4}
          maxLength={2000}
          value={form.text}
          onChange={(event) => form.setText(event.target.value)}
        />
      </div>
      {form.state === 'error' && (
        <p className="field-error" role="alert">
          {form.error}
        </p>
      )}
      <DisputeButtons posting={form.state === 'posting'} t={t} onBack={onBack} />
    </form>
  );
}

function DisputeButtons({ posting, t, onBack }: { posting: boolean; t: T; onBack(): void }) {
  return (
    <div className="trade-buttons">
      <button type="submit" className="btn btn-primary" disabled={posting} aria-busy={posting}>
        {t('trade.dispute.submit')}
      </button>
      <button type="button" className="btn btn-secondary" onClick={onBack}>
        {t('trade.action.back')}
      </button>
    </div>
  );
}
