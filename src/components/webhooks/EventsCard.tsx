import type { WebhookView } from '../../lib/shared/webhooks.ts';
import type { T } from './types.ts';
import type { EventsState } from './use-webhook.ts';

// The events the webhook follows, one box each with its name and what makes it happen, in the
// order WEBHOOK_EVENTS lists them. A box changes at once (the API follows); one the API refused
// goes back and the error shows under it.

/** `trade.started` → `trade_started`, the message keys' form. */
export const eventKey = (name: string) => name.replaceAll('.', '_');

export function EventsCard({ t, view, state }: { t: T; view: WebhookView; state: EventsState }) {
  const none = view.events.every((event) => !event.checked);
  return (
    <section className="card wh-card wh-events" aria-labelledby="wh-events-title" data-testid="webhook-events">
      <h2 className="h3" id="wh-events-title">
        {t('webhooks.events.title')}
      </h2>
      <p className="muted wh-small">
        {t(none && view.url === null ? 'webhooks.events.allOnSave' : 'webhooks.events.lead')}
      </p>
      <fieldset className="wh-event-list">
        <legend className="visually-hidden">{t('webhooks.events.title')}</legend>
        {view.events.map((event) => {
          const key = eventKey(event.name);
          const error = state.error?.name === event.name ? state.error.message : null;
          return (
            <div className="wh-event" key={event.name} data-event={event.name}>
              <label className="checkbox wh-event-label">
                <input
                  type="checkbox"
                  checked={event.checked}
                  aria-describedby={`wh-event-${key}-text${error ? ` wh-event-${key}-error` : ''}`}
                  aria-invalid={error ? true : undefined}
                  onChange={(change) => state.toggle(event.name, change.target.checked)}
                />
                <span className="wh-event-name">
                  <span>{t(`webhooks.event.${key}`)}</span>
                  <code dir="ltr">{event.name}</code>
                </span>
              </label>
              <p className="muted wh-event-text" id={`wh-event-${key}-text`}>
                {t(`webhooks.eventText.${key}`)}
              </p>
              {error && (
                <p className="alert alert-error wh-small" id={`wh-event-${key}-error`} role="alert">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </fieldset>
    </section>
  );
}
