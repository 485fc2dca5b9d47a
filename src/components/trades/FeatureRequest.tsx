import { useEffect, useMemo, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';

// The feature-request form (spec sections 4 and 8): submitted on success, then reset after a
// delay; on failure the typed text stays and the error shows, then the error goes after the delay.
// Without JavaScript the same form posts to the page, which calls the API and keeps the text too.

const RESET_MS = 5000;
type State = 'initial' | 'posting' | 'success' | 'error';

type Props = {
  messages: IslandMessages;
  action: string;
  csrf: string;
  /** What the page rendered after a post without JavaScript. */
  text?: string;
  state?: 'success' | 'error';
  error?: string | undefined;
};

export default function FeatureRequest(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const [text, setText] = useState(props.text ?? '');
  const [state, setState] = useState<State>(props.state ?? 'initial');
  const [error, setError] = useState(props.error);

  useEffect(() => {
    if (state !== 'success' && state !== 'error') return;
    const timer = window.setTimeout(() => {
      setState('initial');
      setError(undefined);
    }, RESET_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setState('posting');
    const answer = await apiPost<{ success: boolean }>('/rest/v1/feedback/feature-request', { text });
    if (answer.ok) {
      setText('');
      setState('success');
      return;
    }
    setError(answer.errors[0]?.message || t('trades.idea.failed'));
    setState('error');
  };

  return (
    <form method="post" action={props.action} className="card trades-card trades-idea" onSubmit={submit}>
      <h2 className="h3" id="idea-title">
        {t('trades.idea.title')}
      </h2>
      <p className="muted">{t('trades.idea.lead')}</p>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="action" value="idea" />
      <label className="field-label" htmlFor="idea-text">
        {t('trades.idea.label')}
      </label>
      <textarea
        id="idea-text"
        className="input"
        name="text"
        rows={3}
        maxLength={2000}
        required
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={state === 'error' || undefined}
        aria-describedby={state === 'error' ? 'idea-error' : undefined}
      />
      {state === 'error' && (
        <p className="alert alert-error" role="alert" id="idea-error">
          {error || t('trades.idea.failed')}
        </p>
      )}
      {state === 'success' && (
        <p className="alert alert-success" role="status">
          {t('trades.idea.sent')}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={state === 'posting' || text.trim() === ''}>
        {state === 'posting' ? t('trades.idea.sending') : t('trades.idea.send')}
      </button>
    </form>
  );
}
