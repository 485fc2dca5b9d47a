import { useId, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type DisputeReasonOption, reasonsFor, type TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// The dispute form (spec sections 3 and 7): once `dispute.available`, a reason of the reader's
// side and a text; before that, when it becomes available.

export function DisputeForm({
  trade,
  reasons,
  t,
  lang,
  onTrade,
}: {
  trade: TradeView;
  reasons: DisputeReasonOption[];
  t: T;
  lang: string;
  onTrade(trade: TradeView): void;
}) {
  const id = useId();
  const options = reasonsFor(reasons, trade.role);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [text, setText] = useState('');
  const [state, setState] = useState<'initial' | 'posting' | 'error'>('initial');
  const [error, setError] = useState('');

  if (trade.role === 'moderator' || trade.status !== 'paid') return null;
  if (!trade.dispute.available) {
    if (trade.dispute.availableAt === null) return null;
    const when = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
      trade.dispute.availableAt * 1000,
    );
    return (
      <p className="trade-dispute-later muted" data-dispute-later>
        {t('trade.dispute.later', { time: when })}
      </p>
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

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (!reason || !text.trim()) {
      setError(t('trade.dispute.incomplete'));
      setState('error');
      return;
    }
    setState('posting');
    const result = await apiPost<TradeView>(`/rest/v1/trade/${trade.hash}/dispute`, {
      dispute_reason_id: reason,
      dispute_reason_text: text,
    });
    if (result.ok && result.data) {
      setState('initial');
      onTrade(result.data);
      return;
    }
    setError(result.errors[0]?.message || t('trade.action.failed'));
    setState('error');
  };

  return (
    <form className="trade-dispute card" onSubmit={submit} aria-labelledby={`${id}-title`} data-dispute-form>
      <h2 id={`${id}-title`} className="h4">
        {t('trade.dispute.title')}
      </h2>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t('trade.dispute.reason')}</label>
        <select
          id={`${id}-reason`}
          className="input"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
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
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      {state === 'error' && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="trade-buttons">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={state === 'posting'}
          aria-busy={state === 'posting'}
        >
          {t('trade.dispute.submit')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
          {t('trade.action.back')}
        </button>
      </div>
    </form>
  );
}
