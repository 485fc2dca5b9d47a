import { useId } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { type FeedbackState, type TradeFeedback, useFeedback } from './use-feedback.ts';

// Feedback after the trade (spec section 7 "Feedback"): what each party said of the other, and
// the form to rate the partner (positive or negative, with a message) while the server allows it.

export function FeedbackForm({ trade, t }: { trade: TradeView; t: T }) {
  const id = useId();
  const form = useFeedback(trade.hash, t);
  const { feedback } = form;
  if (!feedback) return null;
  const partner = trade.role === 'buyer' ? trade.seller.username : trade.buyer.username;

  return (
    <section className="trade-feedback card" aria-labelledby={`${id}-title`} data-feedback>
      <h2 id={`${id}-title`} className="h4">
        {tIsolated(t, 'trade.feedback.title', { username: partner })}
      </h2>
      {feedback.received && (
        <p className="trade-feedback-received" data-feedback-received={feedback.received.rating}>
          {tIsolated(t, `trade.feedback.received.${feedback.received.rating}`, { username: partner })}{' '}
          <q dir="auto">{feedback.received.message}</q>
        </p>
      )}
      {feedback.canGive ? (
        <FeedbackEditor id={id} t={t} feedback={feedback} form={form} />
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

function FeedbackEditor({ id, t, feedback, form }: { id: string; t: T; feedback: TradeFeedback; form: FeedbackState }) {
  const { state } = form;
  return (
    <form onSubmit={form.submit} className="trade-feedback-form">
      <RatingChoice id={id} t={t} form={form} />
      <div className="field">
        <label htmlFor={`${id}-message`}>{t('trade.feedback.message')}</label>
        <textarea
          dir="auto"
          id={`${id}-message`}
          className="input"
          rows={3}
          maxLength={500}
          value={form.message}
          onChange={(event) => form.setMessage(event.target.value)}
        />
      </div>
      {state === 'error' && (
        <p className="field-error" role="alert">
          {form.error}
        </p>
      )}
      {state === 'success' && (
        <p className="alert alert-success" role="status" data-feedback-saved>
          {t('trade.feedback.saved')}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={state === 'posting' || !form.message.trim()}>
        {t(feedback.given ? 'trade.feedback.update' : 'trade.feedback.submit')}
      </button>
    </form>
  );
}

function RatingChoice({ id, t, form }: { id: string; t: T; form: FeedbackState }) {
  return (
    <fieldset className="trade-rating">
      <legend className="field-label">{t('trade.feedback.rating')}</legend>
      {(['positive', 'negative'] as const).map((value) => (
        <label key={value} className={`trade-rating-option trade-rating-${value}`}>
          <input
            type="radio"
            name={`${id}-rating`}
            value={value}
            checked={form.rating === value}
            onChange={() => form.setRating(value)}
          />
          <span>{t(`trade.feedback.${value}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}
