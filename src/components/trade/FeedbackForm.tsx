import { useEffect, useId, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// Feedback after the trade (spec section 7 "Feedback"): what each party said of the other, and
// the form to rate the partner (positive or negative, with a message) while the server allows it.

interface FeedbackEntry {
  rating: 'positive' | 'negative';
  message: string;
  from: { username: string };
}
interface TradeFeedback {
  given: FeedbackEntry | null;
  received: FeedbackEntry | null;
  canGive: boolean;
}

export function FeedbackForm({ trade, t }: { trade: TradeView; t: T }) {
  const id = useId();
  const [feedback, setFeedback] = useState<TradeFeedback | null>(null);
  const [rating, setRating] = useState<'positive' | 'negative'>('positive');
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'initial' | 'posting' | 'success' | 'error'>('initial');
  const [error, setError] = useState('');
  const url = `/rest/v1/feedback/${trade.hash}`;

  useEffect(() => {
    void apiGet<TradeFeedback>(url).then((result) => {
      if (result.ok && result.data) {
        setFeedback(result.data);
        if (result.data.given) {
          setRating(result.data.given.rating);
          setMessage(result.data.given.message);
        }
      }
    });
  }, [url]);

  if (!feedback) return null;
  const partner = trade.role === 'buyer' ? trade.seller.username : trade.buyer.username;

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setState('posting');
    setError('');
    const result = await apiPost(`${url}/give`, { rating, message });
    if (!result.ok) {
      setError(result.errors[0]?.message || t('trade.feedback.failed'));
      setState('error');
      return;
    }
    setState('success');
    const again = await apiGet<TradeFeedback>(url);
    if (again.ok && again.data) setFeedback(again.data);
  };

  return (
    <section className="trade-feedback card" aria-labelledby={`${id}-title`} data-feedback>
      <h2 id={`${id}-title`} className="h4">
        {t('trade.feedback.title', { username: partner })}
      </h2>
      {feedback.received && (
        <p className="trade-feedback-received" data-feedback-received={feedback.received.rating}>
          {t(`trade.feedback.received.${feedback.received.rating}`, { username: partner })}{' '}
          <q dir="auto">{feedback.received.message}</q>
        </p>
      )}
      {feedback.canGive ? (
        <form onSubmit={submit} className="trade-feedback-form">
          <fieldset className="trade-rating">
            <legend className="field-label">{t('trade.feedback.rating')}</legend>
            {(['positive', 'negative'] as const).map((value) => (
              <label key={value} className={`trade-rating-option trade-rating-${value}`}>
                <input
                  type="radio"
                  name={`${id}-rating`}
                  value={value}
                  checked={rating === value}
                  onChange={() => setRating(value)}
                />
                <span>{t(`trade.feedback.${value}`)}</span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-message`}>{t('trade.feedback.message')}</label>
            <textarea
              dir="auto"
              id={`${id}-message`}
              className="input"
              rows={3}
              maxLength={500}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
            />
          </div>
          {state === 'error' && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          {state === 'success' && (
            <p className="alert alert-success" role="status" data-feedback-saved>
              {t('trade.feedback.saved')}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={state === 'posting' || !message.trim()}>
            {t(feedback.given ? 'trade.feedback.update' : 'trade.feedback.submit')}
          </button>
        </form>
      ) : feedback.given ? (
        <p data-feedback-given={feedback.given.rating}>
          {t(`trade.feedback.given.${feedback.given.rating}`)} <q dir="auto">{feedback.given.message}</q>
        </p>
      ) : (
        <p className="muted">{t('trade.feedback.closed')}</p>
      )}
    </section>
  );
}
