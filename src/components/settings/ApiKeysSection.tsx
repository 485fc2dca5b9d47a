import { type RefObject, type SubmitEvent, useEffect, useRef, useState } from 'react';
import {
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  type ApiKeyScope,
  type ApiKeyView,
  MAX_API_KEYS,
} from '../../lib/shared/api-keys.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import { ConfirmDelete } from '../ConfirmDelete.tsx';
import { useSettings } from './context.ts';
import { DateTime, Field, FormAlert, fieldAria, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { type CreatedKey, useApiKeys } from './use-api-keys.ts';

// API keys for bots (issue 21, docs/api.md): merchants and identity-verified people create keys
// (read or trade), see each new key's secret once, and revoke keys; anyone else learns who may
// and where to get there. `initial` is null for those who may not (settings.astro asks /users/me).

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function ApiKeysSection({ initial }: { initial: ApiKeyView[] | null }) {
  const { t } = useSettings();
  return (
    <SectionCard id="api-keys" title={t('settings.apiKeys.title')} lead={t('settings.apiKeys.lead')}>
      {initial === null ? <NotEligible /> : <ApiKeysManager initial={initial} />}
    </SectionCard>
  );
}

function DocsLink() {
  const { t, locale } = useSettings();
  return (
    <a className="text-link" href={localizePath(locale as Locale, '/developers#api')}>
      {t('settings.apiKeys.docs')}
    </a>
  );
}

function NotEligible() {
  const { t, locale } = useSettings();
  return (
    <div className="stack-sm" data-api-keys-not-eligible>
      <p className="alert alert-info">{t('settings.apiKeys.notEligible')}</p>
      <div className="button-row">
        <a className="btn btn-primary" href={localizePath(locale as Locale, '/verification')}>
          {t('settings.apiKeys.verify')}
        </a>
        <a className="text-link" href={localizePath(locale as Locale, '/webhooks')}>
          {t('settings.apiKeys.merchants')}
        </a>
        <DocsLink />
      </div>
    </div>
  );
}

function ApiKeysManager({ initial }: { initial: ApiKeyView[] }) {
  const { t } = useSettings();
  const state = useApiKeys(initial);
  const nameInput = useRef<HTMLInputElement>(null);
  const listTitle = useRef<HTMLHeadingElement>(null);
  const full = state.keys.length >= MAX_API_KEYS;

  return (
    <div className="stack">
      <p className="api-keys-intro">
        {t('settings.apiKeys.intro')} <DocsLink />
      </p>
      <FormAlert message={state.failure.summary} />
      {state.created ? (
        <NewKeyPanel
          created={state.created}
          onDone={() => {
            state.dismissCreated();
            // The form comes back in the panel's place: go on from there.
            requestAnimationFrame(() => (nameInput.current ?? listTitle.current)?.focus());
          }}
        />
      ) : full ? (
        <p className="alert alert-info" data-api-keys-full>
          {t('settings.apiKeys.full', { max: MAX_API_KEYS })}
        </p>
      ) : (
        <CreateForm
          inputRef={nameInput}
          busy={state.busy === 'create'}
          error={state.failure.fields.name}
          onCreate={state.create}
        />
      )}
      <div className="stack-sm">
        <h3 className="subhead api-keys-list-title" id="api-keys-list-title" ref={listTitle} tabIndex={-1}>
          {t('settings.apiKeys.listTitle')}{' '}
          <span className="muted api-keys-count">
            {t('settings.apiKeys.count', { count: state.keys.length, max: MAX_API_KEYS })}
          </span>
        </h3>
        <StatusLine message={state.done} />
        {state.keys.length === 0 ? (
          <p className="muted">{t('settings.apiKeys.empty')}</p>
        ) : (
          <ul className="api-key-list" aria-labelledby="api-keys-list-title">
            {state.keys.map((key) => (
              <KeyItem
                key={key.id}
                apiKey={key}
                asking={state.confirming === key.id}
                busy={state.busy === key.id}
                onAsk={() => state.setConfirming(key.id)}
                onCancel={() => state.setConfirming(null)}
                onRevoke={async () => {
                  // The row and its buttons go: the list's heading keeps the focus in the section.
                  if (await state.revoke(key)) listTitle.current?.focus();
                }}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function CreateForm({
  inputRef,
  busy,
  error,
  onCreate,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  busy: boolean;
  error: string | undefined;
  onCreate(name: string, scope: ApiKeyScope): Promise<boolean>;
}) {
  const { t } = useSettings();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  // A refused name: back to the field, whose message the screen reader then reads.
  useEffect(() => {
    if (error) inputRef.current?.focus();
  }, [error, inputRef]);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (await onCreate(name, scope)) {
      setName('');
      setScope('read');
    }
  };
  return (
    <form className="form api-key-form" onSubmit={submit} noValidate aria-labelledby="api-key-create-title">
      <h3 className="subhead" id="api-key-create-title">
        {t('settings.apiKeys.createTitle')}
      </h3>
      <Field id="api-key-name" label={t('settings.apiKeys.name')} hint={t('settings.apiKeys.nameHint')} error={error}>
        <input
          ref={inputRef}
          className="input"
          {...fieldAria('api-key-name', error, true)}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={API_KEY_NAME_MAX}
          autoComplete="off"
          required
        />
      </Field>
      <fieldset className="fieldset">
        <legend className="field-label">{t('settings.apiKeys.scopeLabel')}</legend>
        <div className="api-key-scopes">
          {API_KEY_SCOPES.map((option) => (
            <label className="checkbox api-key-scope" key={option}>
              <input
                type="radio"
                name="scope"
                value={option}
                checked={scope === option}
                onChange={() => setScope(option)}
                aria-describedby={`api-key-scope-${option}-hint`}
              />
              <span>
                <strong>{t(`settings.apiKeys.scope.${option}`)}</strong>
                <span className="field-hint" id={`api-key-scope-${option}-hint`}>
                  {t(`settings.apiKeys.scope.${option}Hint`)}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="button-row">
        <SubmitButton busy={busy}>{t('settings.apiKeys.create')}</SubmitButton>
      </div>
    </form>
  );
}

/** The new key's id and secret, once: copy both, then "I saved it" takes the secret away for good. */
function NewKeyPanel({ created, onDone }: { created: CreatedKey; onDone(): void }) {
  const { t } = useSettings();
  const [note, setNote] = useState<string>();
  const box = useRef<HTMLElement>(null);

  // Shown in place of the form the person just used: read it first.
  useEffect(() => {
    box.current?.focus();
  }, []);

  const copy = async (text: string, copied: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNote(copied);
    } catch {
      setNote(t('settings.copyFailed'));
    }
  };

  return (
    <section
      className="api-key-new"
      ref={box}
      tabIndex={-1}
      aria-labelledby="api-key-new-title"
      aria-describedby="api-key-new-warning"
      data-api-key-new
    >
      <h3 className="h3" id="api-key-new-title">
        {t('settings.apiKeys.newTitle', { name: created.key.name })}
      </h3>
      <p className="api-key-warning" id="api-key-new-warning">
        <strong>{t('settings.apiKeys.secretWarning')}</strong>
      </p>
      <dl className="api-key-new-facts">
        <CopyableFact
          label={t('settings.apiKeys.keyId')}
          value={created.key.id}
          copyLabel={t('settings.apiKeys.copyId')}
          onCopy={() => void copy(created.key.id, t('settings.apiKeys.idCopied'))}
          testId="api-key-new-id"
        />
        <CopyableFact
          label={t('settings.apiKeys.secret')}
          value={created.secret}
          copyLabel={t('settings.apiKeys.copySecret')}
          onCopy={() => void copy(created.secret, t('settings.apiKeys.secretCopied'))}
          testId="api-key-new-secret"
        />
      </dl>
      <StatusLine message={note} />
      <div className="button-row">
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t('settings.apiKeys.saved')}
        </button>
      </div>
    </section>
  );
}

function CopyableFact(props: { label: string; value: string; copyLabel: string; onCopy(): void; testId: string }) {
  const { t } = useSettings();
  return (
    <div className="api-key-fact">
      <dt>{props.label}</dt>
      <dd>
        <code className="secret" dir="ltr" data-testid={props.testId}>
          {props.value}
        </code>
        <button type="button" className="btn btn-secondary" aria-label={props.copyLabel} onClick={props.onCopy}>
          {t('settings.copy')}
        </button>
      </dd>
    </div>
  );
}

function KeyItem({
  apiKey,
  asking,
  busy,
  onAsk,
  onCancel,
  onRevoke,
}: {
  apiKey: ApiKeyView;
  asking: boolean;
  busy: boolean;
  onAsk(): void;
  onCancel(): void;
  onRevoke(): void;
}) {
  const { t } = useSettings();
  return (
    <li className="api-key" data-api-key={apiKey.id}>
      <div className="api-key-main">
        <p className="api-key-name">
          <strong>{apiKey.name}</strong>
          <span className={`badge ${apiKey.scope === 'trade' ? 'badge-trade' : 'badge-off'}`}>
            {t(`settings.apiKeys.scope.${apiKey.scope}`)}
          </span>
        </p>
        <p className="api-key-id">
          <span className="visually-hidden">{t('settings.apiKeys.keyId')}: </span>
          <code dir="ltr">{apiKey.id}</code>
        </p>
        <p className="api-key-meta muted">
          <span>
            {t('settings.apiKeys.created')} <DateTime iso={iso(apiKey.createdAt)} />
          </span>
          {apiKey.lastUsedAt === null ? (
            <span data-api-key-used="never">{t('settings.apiKeys.neverUsed')}</span>
          ) : (
            <span data-api-key-used="yes">
              {t('settings.apiKeys.lastUsed')} <DateTime iso={iso(apiKey.lastUsedAt)} />
              {apiKey.lastUsedIp && <> · {t('settings.apiKeys.ip', { ip: apiKey.lastUsedIp })}</>}
            </span>
          )}
        </p>
      </div>
      <ConfirmDelete
        id={apiKey.id}
        asking={asking}
        busy={busy}
        words={{
          action: t('settings.apiKeys.revoke'),
          actionLabel: t('settings.apiKeys.revokeLabel', { name: apiKey.name }),
          confirm: t('settings.apiKeys.revokeConfirm'),
          yes: t('settings.apiKeys.revokeYes'),
          no: t('settings.apiKeys.revokeNo'),
        }}
        classes={{ box: 'api-key-confirm' }}
        onAsk={onAsk}
        onCancel={onCancel}
        onConfirm={onRevoke}
      />
    </li>
  );
}
