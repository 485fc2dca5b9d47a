import { useEffect, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import type { T } from './ui.tsx';

// Feedback after the trade (spec section 7 "Feedback"): loading what each party said, the rating
// and message being written (prefilled with the given one), and saving them.

export type Rating = 'positive' | 'negative';

export interface FeedbackEntry {
  rating: Rating;
  message: string;
  from: { username: string };
}
export interface TradeFeedback {
  given: FeedbackEntry | null;
  received: FeedbackEntry | null;
  canGive: boolean;
}

export function useFeedback(hash: string, t: T) {
  const [feedback, setFeedback] = useState<TradeFeedback | null>(null);
  const [rating, setRating] = useState<Rating>('positive');
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'initial' | 'posting' | 'success' | 'error'>('initial');
  const [error, setError] = useState('');
  const url = `/rest/v1/feedback/${hash}`;

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

  return { feedback, rating, setRating, message, setMessage, state, error, submit };
}

export type FeedbackState = ReturnType<typeof useFeedback>;
