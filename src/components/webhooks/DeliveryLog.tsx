import { formatCount } from '../../lib/shared/format.ts';
import type { WebhookDeliveryView } from '../../lib/shared/webhooks.ts';
import type { T } from './types.ts';
import { LocalTime } from './ui.tsx';
import type { DeliveriesState } from './use-deliveries.ts';

// The delivery log (issue 21): a test event on demand (an enabled webhook only), a refresh, the
// deliveries newest first with a resend on those that are done (delivered or failed), and "load
// more" while the API names a next page. On phones each row is a card labelled from data-label
// (webhooks.css).

interface Props {
  t: T;
  lang: string;
  state: DeliveriesState;
  canTest: boolean;
}

export function DeliveryLog({ t, lang, state, canTest }: Props) {
  const { rows } = state;
  return (
    <section className="card wh-card wh-log" aria-labelledby="wh-log-title" data-testid="webhook-log">
      <LogHead t={t} state={state} canTest={canTest} />
      {state.error && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      {rows.length > 0 ? (
        <div className="wh-table-wrap" aria-busy={state.loading !== null || undefined}>
          <table className="wh-table" data-testid="webhook-deliveries">
            <thead>
              <tr>
                {COLUMNS.map(([column, numeric]) => (
                  <th key={column} scope="col" className={numeric ? 'wh-num' : undefined}>
                    {t(`webhooks.column.${column}`)}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t('webhooks.column.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.id} t={t} lang={lang} row={row} state={state} canResend={canTest} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        state.loading === null &&
        !state.error && (
          <p className="wh-empty" data-testid="webhook-log-empty">
            {t('webhooks.log.empty')}
          </p>
        )
      )}
      {state.next && (
        <p className="wh-more">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={state.loading !== null}
            aria-busy={state.loading === 'more' || undefined}
            onClick={state.loadMore}
          >
            {t(state.loading === 'more' ? 'webhooks.log.loading' : 'webhooks.log.more')}
          </button>
        </p>
      )}
    </section>
  );
}

/** The columns of the table: name, and whether it holds a number (aligned to the end). */
const COLUMNS = [
  ['event', false],
  ['status', false],
  ['http', true],
  ['latency', true],
  ['attempts', true],
  ['created', false],
  ['next', false],
] as const;

/** The log's title, the test event (an enabled webhook only) and the refresh. */
function LogHead({ t, state, canTest }: Omit<Props, 'lang'>) {
  return (
    <>
      <div className="wh-card-head">
        <h2 className="h3" id="wh-log-title">
          {t('webhooks.log.title')}
        </h2>
        <div className="wh-log-actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canTest || state.testing}
            aria-busy={state.testing || undefined}
            aria-describedby={canTest ? undefined : 'wh-test-hint'}
            onClick={state.sendTest}
          >
            {t(state.testing ? 'webhooks.test.busy' : 'webhooks.test.action')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={state.loading !== null}
            aria-busy={state.loading === 'refresh' || undefined}
            onClick={state.refresh}
          >
            {t('webhooks.log.refresh')}
          </button>
        </div>
      </div>
      <p className="muted wh-small" id="wh-test-hint">
        {t(canTest ? 'webhooks.log.lead' : 'webhooks.test.needsEnabled')}
      </p>
    </>
  );
}

const DASH = '—';

function Row({
  t,
  lang,
  row,
  state,
  canResend,
}: Omit<Props, 'canTest'> & { row: WebhookDeliveryView; canResend: boolean }) {
  const done = row.status === 'delivered' || row.status === 'failed';
  const busy = state.resending === row.id;
  return (
    <tr data-testid="webhook-delivery" data-id={row.id} data-status={row.status}>
      <td data-label={t('webhooks.column.event')}>
        <span className="wh-event-cell">
          <code className="wh-event-code" dir="ltr">
            {row.event}
          </code>
          <code className="wh-msg-id" dir="ltr">
            {row.id}
          </code>
        </span>
      </td>
      <td data-label={t('webhooks.column.status')}>
        <span className="badge wh-delivery" data-status={row.status}>
          {t(`webhooks.delivery.${row.status}`)}
        </span>
      </td>
      <td className="wh-num" data-label={t('webhooks.column.http')}>
        {row.responseStatus ?? DASH}
      </td>
      <td className="wh-num" data-label={t('webhooks.column.latency')}>
        {row.latencyMs === null ? (
          DASH
        ) : (
          <span dir="ltr">{t('webhooks.latency', { ms: formatCount(row.latencyMs, lang) })}</span>
        )}
      </td>
      <td className="wh-num" data-label={t('webhooks.column.attempts')}>
        {formatCount(row.attempts, lang)}
      </td>
      <td data-label={t('webhooks.column.created')}>
        <LocalTime seconds={row.createdAt} lang={lang} />
      </td>
      <td data-label={t('webhooks.column.next')}>
        {row.nextAttemptAt === null ? DASH : <LocalTime seconds={row.nextAttemptAt} lang={lang} />}
      </td>
      <td className="wh-row-action">
        {done && (
          <button
            type="button"
            className="btn btn-secondary wh-resend"
            disabled={!canResend || busy}
            aria-busy={busy || undefined}
            aria-label={t('webhooks.log.resendLabel', { event: row.event, id: row.id })}
            onClick={() => state.resend(row.id)}
          >
            {t('webhooks.log.resend')}
          </button>
        )}
      </td>
    </tr>
  );
}
