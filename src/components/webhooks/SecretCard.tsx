import { useRef, useState } from 'react';
import type { WebhookView } from '../../lib/shared/webhooks.ts';
import { ConfirmDelete } from '../ConfirmDelete.tsx';
import type { Announce, T } from './types.ts';
import { LocalTime, Rich } from './ui.tsx';
import type { SecretState } from './use-webhook.ts';

// The signing secret: hidden until revealed, copied without revealing it, rotated after a
// second step (the previous secret keeps signing for a day, and the card says until when), and
// the one line that says how deliveries are signed (Standard Webhooks' three headers).

const PREFIX = 'whsec_';

export function SecretCard({
  t,
  lang,
  view,
  state,
  announce,
}: {
  t: T;
  lang: string;
  view: WebhookView;
  state: SecretState;
  announce: Announce;
}) {
  return (
    <section className="card wh-card wh-secret" aria-labelledby="wh-secret-title" data-testid="webhook-secret">
      <h2 className="h3" id="wh-secret-title">
        {t('webhooks.secret.title')}
      </h2>
      <SecretValue t={t} secret={view.secret} state={state} announce={announce} />
      <p className="muted wh-small">
        <Rich
          template={t('webhooks.secret.hint')}
          parts={{
            id: <code dir="ltr">webhook-id</code>,
            timestamp: <code dir="ltr">webhook-timestamp</code>,
            signature: <code dir="ltr">webhook-signature</code>,
          }}
        />
      </p>
      {view.previousSecretExpiresAt !== null && (
        <p className="alert alert-info wh-small" data-testid="webhook-previous-secret">
          <Rich
            template={t('webhooks.secret.previous')}
            parts={{ time: <LocalTime seconds={view.previousSecretExpiresAt} lang={lang} /> }}
          />
        </p>
      )}
      {state.error && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <ConfirmDelete
        id="secret"
        asking={state.asking}
        busy={state.busy}
        words={{
          action: t('webhooks.secret.rotate'),
          confirm: t('webhooks.secret.rotateConfirm'),
          yes: t('webhooks.secret.rotateYes'),
          no: t('webhooks.cancel'),
        }}
        classes={{ button: 'wh-rotate', box: 'wh-confirm' }}
        onAsk={state.ask}
        onCancel={state.cancel}
        onConfirm={state.confirm}
      />
    </section>
  );
}

/** The secret, hidden but for its prefix until revealed, and its two buttons. */
function SecretValue({ t, secret, state, announce }: { t: T; secret: string; state: SecretState; announce: Announce }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      announce(t('webhooks.secret.copiedStatus'));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2500);
    } catch {
      // No clipboard (an insecure origin, a refused permission): shown, to copy by hand.
      if (!state.revealed) state.toggleReveal();
    }
  };
  return (
    <div className="wh-secret-row">
      <code className="wh-secret-value" dir="ltr" data-testid="webhook-secret-value">
        {state.revealed ? (
          secret
        ) : (
          <>
            {PREFIX}
            <span aria-hidden="true">{'•'.repeat(24)}</span>
            <span className="visually-hidden">{t('webhooks.secret.hidden')}</span>
          </>
        )}
      </code>
      <div className="wh-secret-actions">
        <button
          type="button"
          className="btn btn-secondary"
          aria-describedby="wh-secret-title"
          onClick={state.toggleReveal}
        >
          {t(state.revealed ? 'webhooks.secret.hide' : 'webhooks.secret.reveal')}
        </button>
        <button
          type="button"
          className={`btn ${copied ? 'btn-primary' : 'btn-secondary'}`}
          aria-describedby="wh-secret-title"
          onClick={() => void copy()}
        >
          {t(copied ? 'webhooks.secret.copied' : 'webhooks.secret.copy')}
        </button>
      </div>
    </div>
  );
}
