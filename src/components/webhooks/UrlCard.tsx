import { ConfirmDelete } from '../ConfirmDelete.tsx';
import type { T } from './types.ts';
import { Rich, StatusBadge } from './ui.tsx';
import type { UrlNotice, WebhookState } from './use-webhook.ts';

// The webhook's address (spec section 4 "Webhook"): its status badge, the form that saves it
// (checking it first: "verification"), what the last save said, the warning of a webhook the
// platform disabled, and removing it (asked twice).

const NOTICE_ID = 'wh-url-notice';

export function UrlCard({ t, state, guideLink }: { t: T; state: WebhookState; guideLink: string }) {
  const { status, view, notice, remover } = state;
  return (
    <section
      className="card wh-card wh-url"
      aria-labelledby="wh-url-title"
      data-testid="webhook-url"
      data-state={status}
    >
      <div className="wh-card-head">
        <h2 className="h3" id="wh-url-title" tabIndex={-1}>
          {t('webhooks.url.title')}
        </h2>
        <StatusBadge status={status} label={t(`webhooks.status.${status}`)} />
      </div>
      {view.disabledReason === 'deliveries_failed' && status === 'disabled' && !notice && (
        <p className="alert wh-warning" data-testid="webhook-deliveries-failed">
          {t('webhooks.url.deliveriesFailed')}
        </p>
      )}
      <UrlForm t={t} state={state} guideLink={guideLink} />
      <Notice t={t} notice={notice} />
      {remover.error && (
        <p className="alert alert-error" role="alert">
          {remover.error}
        </p>
      )}
      {view.url !== null && (
        <ConfirmDelete
          id="webhook"
          asking={remover.asking}
          busy={remover.busy}
          words={{
            action: t('webhooks.url.remove'),
            confirm: t('webhooks.url.removeConfirm'),
            yes: t('webhooks.url.removeYes'),
            no: t('webhooks.cancel'),
          }}
          classes={{ button: 'wh-remove', box: 'wh-confirm' }}
          onAsk={remover.ask}
          onCancel={remover.cancel}
          onConfirm={remover.confirm}
        />
      )}
    </section>
  );
}

/** The address field and Save, busy ("checking your URL") while the challenge runs. */
function UrlForm({ t, state, guideLink }: { t: T; state: WebhookState; guideLink: string }) {
  const checking = state.status === 'verification';
  const failed = state.notice?.kind === 'failed';
  const described = ['wh-url-hint', state.urlError ? 'wh-url-error' : '', failed ? NOTICE_ID : ''];
  return (
    <form className="wh-url-form" noValidate onSubmit={(event) => void state.save(event)}>
      <label className="field-label" htmlFor="wh-url-field">
        {t('webhooks.url.label')}
      </label>
      <div className="wh-url-row">
        <input
          id="wh-url-field"
          className="input wh-url-field"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          dir="ltr"
          placeholder="https://example.com/webhooks"
          value={state.url}
          aria-invalid={state.urlError || failed ? true : undefined}
          aria-describedby={described.filter(Boolean).join(' ')}
          onChange={(event) => state.setUrl(event.target.value)}
        />
        <button type="submit" className="btn btn-primary wh-save" disabled={checking} aria-busy={checking || undefined}>
          {t(checking ? 'webhooks.url.checking' : 'webhooks.url.save')}
        </button>
      </div>
      {state.urlError && (
        <p className="field-error" id="wh-url-error">
          {state.urlError}
        </p>
      )}
      <p className="field-hint" id="wh-url-hint">
        <Rich template={t('webhooks.url.hint')} parts={{ header: <code dir="ltr">X-Webhook-Challenge</code> }} />{' '}
        <a className="text-link" href={guideLink}>
          {t('webhooks.guide')}
        </a>
      </p>
    </form>
  );
}

function Notice({ t, notice }: { t: T; notice: UrlNotice }) {
  if (!notice) return null;
  if (notice.kind !== 'failed') {
    return (
      <p className="alert alert-success" data-testid="webhook-notice" data-kind={notice.kind}>
        {t(notice.kind === 'saved' ? 'webhooks.url.saved' : 'webhooks.url.removed')}
      </p>
    );
  }
  return (
    <div
      className="alert alert-error wh-failed"
      id={NOTICE_ID}
      role="alert"
      data-testid="webhook-notice"
      data-kind="failed"
    >
      <p className="wh-failed-title">{t('webhooks.url.failedTitle')}</p>
      <p>
        {notice.message}
        {notice.status !== null && ` ${t('webhooks.url.failedStatus', { status: notice.status })}`}
      </p>
      {notice.stillEnabled && (
        <p className="wh-still">
          {t('webhooks.url.stillEnabled')} <span dir="ltr">{notice.stillEnabled}</span>
        </p>
      )}
    </div>
  );
}
